import { useStore } from '@nanostores/react';
import { useEffect, useRef, type CSSProperties, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import { $edaFocus, watchFocusLinks } from '../stores/eda-focus.ts';
import { $edaHighlight, $edaSelection, selectPart } from '../stores/eda-selection.ts';
import { createBoardViewer, layerColour, layersOfSide, wheelFactor, type Point, type Size } from '../stores/eda-viewer.ts';
import { LayerPanel } from './eda/LayerPanel.tsx';
import { CheckMarker } from './eda/CheckMarker.tsx';
import { PartMarkers } from './eda/PartMarkers.tsx';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';
import { useIslandStore } from './use-island-store.ts';
import type { Board, Placement } from '../lib/contract/schemas/eda.ts';

export interface BoardViewerInit {
  /** A ready board (top and bottom renders, size known). */
  board: Board;
  /** Its placements from a pick-and-place file (none: no markers). */
  placements: Placement[];
  /** Upper-cased designator → BOM line, to select a line from its part. */
  lineIndex: Record<string, number>;
  /** The board the design checks (DRC) were run on: a check's place is shown here. */
  checked?: boolean;
}

export interface BoardViewerProps extends BoardViewerInit {
  locale: string;
  messages: IslandMessages;
}

function Viewer({ board, placements, lineIndex, checked = false }: BoardViewerInit) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const viewer = useIslandStore(() => createBoardViewer(board.layers));
  const { side, mode, hidden, view } = useStore(viewer.$viewer);
  const highlight = useStore($edaHighlight);
  const picked = useStore($edaSelection).ref;
  const marker = useStore(viewer.$marker);
  const viewport = useRef<HTMLDivElement>(null);
  const widthMm = board.widthMm ?? 1;
  const heightMm = board.heightMm ?? 1;
  const name = board.name;

  const sizeOf = (): Size => {
    const box = viewport.current?.getBoundingClientRect();
    return { width: box?.width ?? 1, height: box?.height ?? 1 };
  };
  const pointOf = (event: { clientX: number; clientY: number }): Point => {
    const box = viewport.current!.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  // A wheel listener must be active (not passive) to keep the page from scrolling while it zooms.
  useEffect(() => {
    const element = viewport.current;
    if (!element) return undefined;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      viewer.zoom(wheelFactor(event.deltaY, event.deltaMode), pointOf(event), sizeOf());
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    const size = { widthMm, heightMm };
    const settle = () => viewer.settle(sizeOf(), size);
    const resize = new ResizeObserver(settle);
    resize.observe(element);
    // A design check's place: shown (after the tab holding this board is opened) and scrolled to.
    const stopFocus = checked
      ? $edaFocus.listen((focus) => {
          if (focus?.on === 'board') requestAnimationFrame(settle);
        })
      : undefined;
    const stopMarker = viewer.$marker.listen((place) => place && element.scrollIntoView({ block: 'center', behavior: 'smooth' }));
    const stopLinks = checked ? watchFocusLinks() : undefined;
    return () => {
      element.removeEventListener('wheel', onWheel);
      resize.disconnect();
      stopFocus?.();
      stopMarker();
      stopLinks?.();
    };
  }, [hydrated, viewer, checked, widthMm, heightMm]);

  if (!hydrated) {
    // Before the island is live (and without JavaScript) both sides are plain pictures.
    return (
      <div className="board-renders">
        {board.top && (
          <figure>
            <img src={board.top} alt={t('eda.viewer.topAlt', { name })} />
            <figcaption>{t('eda.viewer.top')}</figcaption>
          </figure>
        )}
        {board.bottom && (
          <figure>
            <img src={board.bottom} alt={t('eda.viewer.bottomAlt', { name })} />
            <figcaption>{t('eda.viewer.bottom')}</figcaption>
          </figure>
        )}
      </div>
    );
  }

  const shown = layersOfSide(board.layers, side);
  const sideParts = placements.filter((part) => part.side === side);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    viewer.pointerDown(event.pointerId, pointOf(event));
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    viewer.pointerMove(event.pointerId, pointOf(event), sizeOf());
    // Captured only once it is a drag: a plain click must still reach the part under it.
    if (viewer.dragged() && !event.currentTarget.hasPointerCapture(event.pointerId) && event.buttons) event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => viewer.pointerUp(event.pointerId);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (viewer.dragged()) return;
    const designator = (event.target as Element).closest('[data-designator]')?.getAttribute('data-designator');
    if (designator) selectPart(designator, lineIndex[designator.toUpperCase()] ?? null, 'board');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (viewer.key(event.key, sizeOf())) event.preventDefault();
  };

  const render = side === 'top' ? board.top : board.bottom;
  return (
    <div className="board-viewer">
      <div className="viewer-toolbar">
        <div className="segmented" role="group" aria-label={t('eda.viewer.side')}>
          {(['top', 'bottom'] as const).map((value) => (
            <button key={value} type="button" className="btn" aria-pressed={side === value} onClick={() => viewer.setSide(value)}>
              {t(`eda.viewer.${value}`)}
            </button>
          ))}
        </div>
        {shown.length > 0 && (
          <div className="segmented" role="group" aria-label={t('eda.viewer.mode')}>
            {(['realistic', 'layers'] as const).map((value) => (
              <button key={value} type="button" className="btn" aria-pressed={mode === value} onClick={() => viewer.setMode(value)}>
                {t(`eda.viewer.${value}`)}
              </button>
            ))}
          </div>
        )}
        <div className="segmented zoom-controls" role="group">
          <button type="button" className="btn" onClick={() => viewer.zoomStep('out', sizeOf())} aria-label={t('eda.viewer.zoomOut')} title={t('eda.viewer.zoomOut')}>−</button>
          <button type="button" className="btn" onClick={() => viewer.zoomStep('in', sizeOf())} aria-label={t('eda.viewer.zoomIn')} title={t('eda.viewer.zoomIn')}>+</button>
          <button type="button" className="btn" onClick={viewer.reset}>{t('eda.viewer.reset')}</button>
        </div>
      </div>
      <div className="viewer-body">
        <div
          ref={viewport}
          className={`board-viewport${mode === 'layers' ? ' is-layers' : ''}`}
          tabIndex={0}
          role="group"
          aria-label={t('eda.viewer.label', { name })}
          aria-roledescription="zoomable image"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onClick={onClick}
          onKeyDown={onKeyDown}
          data-scale={view.scale.toFixed(2)}
          // The viewport has the board's proportions, so zoom and pan limits are the board's edges.
          style={{ aspectRatio: `${widthMm} / ${heightMm}`, '--board-ratio': widthMm / heightMm } as CSSProperties}
        >
          <div className="board-sheet" style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`, '--zoom': view.scale } as CSSProperties}>
            {mode === 'realistic' && render && <img src={render} alt={t(side === 'top' ? 'eda.viewer.topAlt' : 'eda.viewer.bottomAlt', { name })} draggable={false} />}
            {/* The layers and the pick-and-place are drawn as seen from the top: mirrored for the bottom. */}
            <div className={side === 'bottom' ? 'board-frame is-mirrored' : 'board-frame'}>
              {mode === 'layers' &&
                shown.map((index) => {
                  const layer = board.layers[index]!;
                  return (
                    <div
                      key={index}
                      className="board-layer"
                      data-layer={layer.filename}
                      hidden={hidden.includes(index)}
                      style={{ backgroundColor: layerColour(board.layers, index), maskImage: `url("${layer.url}")`, WebkitMaskImage: `url("${layer.url}")` }}
                    />
                  );
                })}
              {sideParts.length > 0 && (
                <PartMarkers widthMm={widthMm} heightMm={heightMm} placements={sideParts} lineIndex={lineIndex} highlight={highlight} picked={picked} label={t('eda.viewer.parts')} />
              )}
              {marker && <CheckMarker widthMm={widthMm} heightMm={heightMm} place={marker} label={t('eda.viewer.checkPlace')} />}
            </div>
          </div>
        </div>
        {mode === 'layers' && <LayerPanel layers={board.layers} shown={shown} hidden={hidden} onToggle={viewer.toggleLayer} />}
      </div>
    </div>
  );
}

/**
 * A rendered board: top and bottom in realistic colours or layer by layer, zoomed and panned by
 * wheel, drag, keys and two fingers, with the parts of the selected BOM line marked on it.
 */
export default function BoardViewer({ locale, messages, ...props }: BoardViewerProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Viewer {...props} />
    </I18nProvider>
  );
}
