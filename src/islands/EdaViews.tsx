import { useStore } from '@nanostores/react';
import { lazy, Suspense, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { IslandMessages } from '../lib/island-messages.ts';
import type { ModelPart } from '../stores/eda-model.ts';
import { $edaSelection } from '../stores/eda-selection.ts';
import { createEdaViews, edaAddress, findSymbol, VIEWS_ANCHOR, type EdaTab, type EdaViewsInit } from '../stores/eda-views.ts';
import { SheetPages } from './eda/SheetPages.tsx';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';
import { useIslandStore } from './use-island-store.ts';

// The schematic viewer (zoom, search, picking parts) is fetched when the schematic is first opened:
// a visit that only looks at the board never loads it.
const SchematicViewer = lazy(() => import('./eda/SchematicViewer.tsx'));
// three.js and the 3D viewer likewise, when the 3D tab is first opened: the heaviest code of the page.
const ModelViewer = lazy(() => import('./eda/ModelViewer.tsx'));

/** The board shown in 3D: its model and its 2D renders, shown where WebGL is missing. */
export interface EdaModel {
  url: string;
  bytes: number;
  name: string;
  top: string | null;
  bottom: string | null;
  /** The parts placed on this board, marked in 3D when picked on the page. */
  parts: ModelPart[];
}

export interface EdaViewsProps extends EdaViewsInit {
  /** The page's own address as the visitor sees it (`/eda/{id}` or `/m/eda/{id}`): the tabs and sheets link to it. */
  path: string;
  /** Upper-cased designators the board places: those parts can be shown on it. */
  placed: string[];
  locale: string;
  messages: IslandMessages;
  /** The board in 3D, when one was made. */
  model: EdaModel | null;
  /** The board view (its sections, rendered by the server). */
  children?: ReactNode;
}

function Views({ sheets, symbols, lines, initial, path, placed, model, children }: Omit<EdaViewsProps, 'locale' | 'messages'>) {
  const { t } = useTranslation();
  const TABS: EdaTab[] = ['board', ...(sheets.length > 0 ? ['schematic' as const] : []), ...(model ? ['model' as const] : [])];
  const hydrated = useHydrated();
  const views = useIslandStore(() => createEdaViews({ sheets, symbols, lines, initial }));
  const { tab, page, opened, modelOpened } = useStore(views.$views);
  const selection = useStore($edaSelection);
  const tabRefs = useRef<Array<HTMLAnchorElement | null>>([]);
  const placedSet = useRef(new Set(placed)).current;

  const hrefOf = (state: { tab: EdaTab; page: number }) => `${path}${edaAddress('', { ...state, ref: null })}#${VIEWS_ANCHOR}`;

  const onTabClick = (event: MouseEvent<HTMLAnchorElement>, next: EdaTab) => {
    if (!hydrated || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    views.showTab(next);
  };
  // Arrows, Home and End move between the tabs and open the one reached (the ARIA tabs pattern).
  const onTabKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.indexOf(tab);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (next === undefined || !hydrated) return;
    event.preventDefault();
    const wrapped = (next + TABS.length) % TABS.length;
    views.showTab(TABS[wrapped]!);
    tabRefs.current[wrapped]?.focus();
  };

  // The part picked on the board, if the schematic draws it: one press shows it there.
  const pickedSymbol = selection.ref ? findSymbol(symbols, selection.ref) : undefined;
  const pickedSheet = pickedSymbol ? sheets.find((sheet) => sheet.page === pickedSymbol.sheet) : undefined;

  return (
    <div className="eda-views">
      <div className="eda-tabs" role="tablist" aria-label={t('schematic.tabs.label')} onKeyDown={onTabKeyDown}>
        {TABS.map((value, index) => (
          <a
            key={value}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            id={`eda-tab-${value}`}
            role="tab"
            href={hrefOf({ tab: value, page })}
            aria-selected={tab === value}
            aria-controls={`eda-panel-${value}`}
            tabIndex={tab === value ? 0 : -1}
            onClick={(event) => onTabClick(event, value)}
          >
            {t(`schematic.tabs.${value}`)}
            {value === 'model' && <span className="tab-count">{t('schematic.model.size', { size: (model!.bytes / 1024 / 1024).toFixed(1) })}</span>}
            {value === 'schematic' && <span className="tab-count">{t('schematic.tabs.sheetCount', { count: sheets.length })}</span>}
          </a>
        ))}
      </div>
      <div id="eda-panel-board" className="eda-panel" role="tabpanel" aria-labelledby="eda-tab-board" hidden={tab !== 'board'}>
        {placed.length > 0 && (
          <p className="cross-probe" role="status">
            {pickedSymbol && pickedSheet && hydrated ? (
              <>
                <span>{t('schematic.crossProbe.drawn', { ref: pickedSymbol.ref, page: pickedSheet.page, name: pickedSheet.name })}</span>
                <button type="button" className="btn" onClick={() => views.showPartInSchematic(pickedSymbol.ref)}>
                  {t('schematic.crossProbe.show')}
                </button>
              </>
            ) : selection.ref && hydrated ? (
              <span>{t('schematic.crossProbe.notDrawn', { ref: selection.ref })}</span>
            ) : (
              <span className="muted">{t('schematic.crossProbe.hint')}</span>
            )}
          </p>
        )}
        {children}
      </div>
      {model && (
        <div id="eda-panel-model" className="eda-panel" role="tabpanel" aria-labelledby="eda-tab-model" hidden={tab !== 'model'}>
          {hydrated && modelOpened ? (
            <Suspense fallback={<p className="muted">{t('schematic.model.loading')}</p>}>
              <ModelViewer url={model.url} name={model.name} top={model.top} bottom={model.bottom} parts={model.parts} lines={lines} />
            </Suspense>
          ) : (
            <p className="muted">
              <a href={model.url} download>
                {t('schematic.model.download')}
              </a>
            </p>
          )}
        </div>
      )}
      {sheets.length > 0 && <div id="eda-panel-schematic" className="eda-panel" role="tabpanel" aria-labelledby="eda-tab-schematic" hidden={tab !== 'schematic'}>
        {hydrated && opened ? (
          <Suspense fallback={<SheetPages sheets={sheets} page={page} hrefOf={(next) => hrefOf({ tab: 'schematic', page: next })} />}>
            <SchematicViewer sheets={sheets} symbols={symbols} lines={lines} views={views} placed={placedSet} hrefOf={(next) => hrefOf({ tab: 'schematic', page: next })} />
          </Suspense>
        ) : (
          <SheetPages sheets={sheets} page={page} hrefOf={(next) => hrefOf({ tab: 'schematic', page: next })} />
        )}
      </div>}
    </div>
  );
}

/**
 * The board and the schematic of a KiCad design as two tabs, opened from the address
 * (`?sheet=2&ref=U3`), which follows what is shown. The schematic's viewer is fetched when it is
 * first opened; before that (and without JavaScript) each sheet is a picture with its download.
 * A part picked on the board is offered in the schematic, and the other way round.
 */
export default function EdaViews({ locale, messages, ...props }: EdaViewsProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Views {...props} />
    </I18nProvider>
  );
}
