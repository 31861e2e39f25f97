import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type CSSProperties, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { $edaHighlight, $edaSelection, designatorsOf } from '../../stores/eda-selection.ts';
import { createSchematicViewer, type SchematicMatch } from '../../stores/eda-schematic.ts';
import { wheelFactor, type Point, type Size } from '../../stores/eda-viewer.ts';
import { findSymbol, type EdaViews } from '../../stores/eda-views.ts';
import { CheckMarker } from './CheckMarker.tsx';
import { PartDetails } from './PartDetails.tsx';
import { SheetDownload, SheetList } from './SheetPages.tsx';
import { useIslandStore } from '../use-island-store.ts';
import type { BomLine, SchematicSheet, SchematicSymbol } from '../../lib/contract/schemas/eda.ts';

export interface SchematicViewerProps {
  sheets: SchematicSheet[];
  symbols: SchematicSymbol[];
  lines: BomLine[];
  views: EdaViews;
  /** Upper-cased designators the board places. */
  placed: ReadonlySet<string>;
  hrefOf: (page: number) => string;
}

/** A symbol's ring, in mm: most passives' bodies fit in it, an IC's centre is marked. */
const RING_MM = 3.6;
/** A check's ring on a sheet, in mm: about a label's height, so the label stays readable inside it. */
const MARKER_MM = 2.2;

function MatchMark({ match, current }: { match: SchematicMatch; current: boolean }) {
  const className = current ? 'match is-current' : 'match';
  if (match.kind === 'text') {
    const pad = 0.6;
    return <rect className={className} x={match.box.x - pad} y={match.box.y - pad} width={match.box.width + pad * 2} height={match.box.height + pad * 2} rx={0.6} />;
  }
  return <circle className={className} cx={match.xMm} cy={match.yMm} r={RING_MM + 1.6} />;
}

/**
 * A KiCad schematic, one sheet at a time: zoomed and panned by wheel, drag, two fingers and keys;
 * searched by reference, value or net label; a symbol picked by a click or a search shows its
 * part and, on the board, where it is placed. Loaded when the schematic tab is first opened.
 */
export default function SchematicViewer({ sheets, symbols, lines, views, placed, hrefOf }: SchematicViewerProps) {
  const { t } = useTranslation();
  const viewer = useIslandStore(() => createSchematicViewer({ sheets, symbols, lines, views }));
  const { page } = useStore(views.$views);
  const view = useStore(viewer.$view);
  const search = useStore(viewer.$search);
  const marker = useStore(viewer.$marker);
  const selection = useStore($edaSelection);
  const highlight = useStore($edaHighlight);
  const viewport = useRef<HTMLDivElement>(null);
  const searchId = useId();
  const hintId = useId();
  const statusId = useId();
  const sheet = sheets.find((candidate) => candidate.page === page) ?? sheets[0]!;

  const sizeOf = (): Size => {
    const box = viewport.current?.getBoundingClientRect();
    return { width: box?.width ?? 0, height: box?.height ?? 0 };
  };
  const pointOf = (event: { clientX: number; clientY: number }): Point => {
    const box = viewport.current!.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  useEffect(() => {
    const element = viewport.current;
    if (!element) return undefined;
    // Active, so the page does not scroll while the sheet zooms.
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      viewer.zoom(wheelFactor(event.deltaY, event.deltaMode), pointOf(event), sizeOf());
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    const resize = new ResizeObserver(() => viewer.settle(sizeOf()));
    resize.observe(element);
    const stop = viewer.follow(sizeOf);
    // A check's place shown here: the viewer comes into view.
    const stopMarker = viewer.$marker.listen((place) => {
      if (place) element.scrollIntoView({ block: 'center', behavior: 'smooth' });
    });
    return () => {
      element.removeEventListener('wheel', onWheel);
      resize.disconnect();
      stop();
      stopMarker();
    };
  }, [viewer]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    viewer.pointerDown(event.pointerId, pointOf(event));
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    viewer.pointerMove(event.pointerId, pointOf(event), sizeOf());
    if (viewer.dragged() && !event.currentTarget.hasPointerCapture(event.pointerId) && event.buttons) event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => viewer.pointerUp(event.pointerId);
  const onClick = (event: MouseEvent<HTMLDivElement>) => viewer.click(pointOf(event), sizeOf());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (viewer.key(event.key, sizeOf())) event.preventDefault();
  };
  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    viewer.step(event.shiftKey ? -1 : 1);
  };

  // What stands out on this sheet: the part picked, the parts of the BOM line picked or hovered, the search's matches.
  const lineParts = designatorsOf(lines, highlight);
  const picked = selection.ref ? findSymbol(symbols, selection.ref, page) : undefined;
  const marked = symbols.filter((symbol) => symbol.sheet === page && (symbol === picked || lineParts.has(symbol.ref.toUpperCase())));
  const matches = search.matches.map((match, index) => ({ match, index })).filter(({ match }) => match.page === page);
  const query = search.query.trim();

  let status = '';
  if (query) {
    if (search.matches.length === 0) status = search.text === 'loading' ? t('schematic.search.searching') : t('schematic.search.none', { query });
    else if (search.current >= 0) status = t('schematic.search.position', { current: search.current + 1, total: search.matches.length });
    else status = t('schematic.search.matches', { count: search.matches.length });
  }

  return (
    <div className="schematic is-live">
      <SheetList sheets={sheets} page={page} hrefOf={hrefOf} onOpen={viewer.openSheet} />
      <div className="schematic-main">
        <div className="schematic-tools">
          <div className="field schematic-search">
            <label htmlFor={searchId}>{t('schematic.search.label')}</label>
            <div className="search-row">
              <input
                id={searchId}
                type="search"
                value={search.query}
                onChange={(event) => viewer.setQuery(event.target.value)}
                onKeyDown={onSearchKey}
                aria-describedby={`${hintId} ${statusId}`}
                autoComplete="off"
                spellCheck={false}
              />
              <div className="segmented">
                <button type="button" className="btn" onClick={() => viewer.step(-1)} disabled={search.matches.length === 0} aria-label={t('schematic.search.previous')} title={t('schematic.search.previous')}>
                  ↑
                </button>
                <button type="button" className="btn" onClick={() => viewer.step(1)} disabled={search.matches.length === 0} aria-label={t('schematic.search.next')} title={t('schematic.search.next')}>
                  ↓
                </button>
              </div>
            </div>
            <small id={hintId} className="muted">{t('schematic.search.hint')}</small>
            <p id={statusId} className="search-status" role="status" aria-live="polite">
              {status}
              {query && search.text === 'failed' && <span className="muted"> {t('schematic.search.textFailed')}</span>}
            </p>
          </div>
          <div className="segmented zoom-controls" role="group" aria-label={t('schematic.viewer.zoom')}>
            <button type="button" className="btn" onClick={() => viewer.zoomStep('out', sizeOf())} aria-label={t('schematic.viewer.zoomOut')} title={t('schematic.viewer.zoomOut')}>−</button>
            <button type="button" className="btn" onClick={() => viewer.zoomStep('in', sizeOf())} aria-label={t('schematic.viewer.zoomIn')} title={t('schematic.viewer.zoomIn')}>+</button>
            <button type="button" className="btn" onClick={viewer.reset}>{t('schematic.viewer.fit')}</button>
          </div>
        </div>
        <div className="schematic-body">
          <div
            ref={viewport}
            className="sheet-viewport"
            tabIndex={0}
            role="group"
            aria-label={t('schematic.viewer.label', { page: sheet.page, name: sheet.name })}
            aria-roledescription={t('schematic.viewer.role')}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            onClick={onClick}
            onKeyDown={onKeyDown}
            data-scale={view.scale.toFixed(2)}
            data-page={sheet.page}
            style={{ aspectRatio: `${sheet.widthMm} / ${sheet.heightMm}`, '--sheet-ratio': sheet.widthMm / sheet.heightMm } as CSSProperties}
          >
            <div className="board-sheet" style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`, '--zoom': view.scale } as CSSProperties}>
              <img key={sheet.svg} src={sheet.svg} alt={t('schematic.sheetAlt', { page: sheet.page, name: sheet.name })} draggable={false} />
              <svg className="sheet-marks" viewBox={`0 0 ${sheet.widthMm} ${sheet.heightMm}`} preserveAspectRatio="none" aria-hidden="true">
                {matches.map(({ match, index }) => (
                  <MatchMark key={index} match={match} current={index === search.current} />
                ))}
                {marked.map((symbol) => (
                  <circle key={`${symbol.ref}@${symbol.xMm},${symbol.yMm}`} className={symbol === picked ? 'symbol is-picked' : 'symbol'} cx={symbol.xMm} cy={symbol.yMm} r={symbol === picked ? RING_MM + 0.6 : RING_MM} data-ref={symbol.ref} />
                ))}
              </svg>
              {marker && marker.page === page && <CheckMarker widthMm={sheet.widthMm} heightMm={sheet.heightMm} place={marker} radiusMm={MARKER_MM} label={t('schematic.checkPlace')} />}
            </div>
          </div>
          <PartDetails symbols={symbols} lines={lines} sheets={sheets} selection={selection} placed={placed} onShowOnBoard={() => views.showTab('board')} onShowSymbol={viewer.showSymbol} />
        </div>
        <p className="sheet-foot">
          <SheetDownload sheet={sheet} />
        </p>
      </div>
    </div>
  );
}
