import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { BOM_EXPORT_FORMATS, type BomColumn } from '../lib/contract/eda.ts';
import type { IslandMessages } from '../lib/island-messages.ts';
import { DIGIKEY_FAST_ADD_URL } from '../lib/eda-order.ts';
import { cellText, createBomTable, exportHref, isSupplierColumn, MAX_BOARDS, quantityFor, supplierUrl } from '../stores/eda-bom.ts';
import { $edaHover, $edaSelection, findDesignator, hoverLine, lineByDesignator, selectLine } from '../stores/eda-selection.ts';
import { BomBoard, type BomBoardPicture } from './eda/BomBoard.tsx';
import { I18nProvider } from './i18n.tsx';
import { useHydrated } from './use-hydrated.ts';
import { useIslandStore } from './use-island-store.ts';
import type { BomLine, Placement } from '../lib/contract/schemas/eda.ts';

export interface BomTableInit {
  projectId: string;
  columns: BomColumn[];
  lines: BomLine[];
  /** Whether a pick-and-place file puts the parts on the board (lines can then be shown there). */
  placed: boolean;
  /** The rendered board the parts are placed on, shown beside the list with the parts of the line in hand (null: none). */
  board: BomBoardPicture | null;
  /** The parts placed on `board`. */
  parts: Placement[];
}

export interface BomTableProps extends BomTableInit {
  locale: string;
  messages: IslandMessages;
}

/** The distributors whose BOM tools take the CSV uploads, and where those tools are. */
const SUPPLIER_UPLOADS = [
  { format: 'mouser', tool: 'https://www.mouser.com/bom/' },
  { format: 'lcsc', tool: 'https://www.lcsc.com/bom' },
] as const;

function Cell({ line, column, boards }: { line: BomLine; column: BomColumn; boards: number }) {
  if (column === 'quantity') return <>{quantityFor(line, boards)}</>;
  const text = cellText(line, column);
  if (text && isSupplierColumn(column)) {
    return (
      <a href={supplierUrl(column, text)} rel="noopener nofollow" target="_blank">
        {text}
      </a>
    );
  }
  return <>{text}</>;
}

function Table({ projectId, columns, lines, placed, board, parts }: BomTableInit) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const table = useIslandStore(() => createBomTable({ columns, lines }));
  const { sort, query, boards, boardsText } = useStore(table.$table);
  const rows = useStore(table.$rows);
  const cart = useStore(table.$digikeyCart);
  const selection = useStore($edaSelection);
  const hover = useStore($edaHover);
  const body = useRef<HTMLTableSectionElement>(null);
  const filterId = useId();
  const boardsId = useId();
  const hintId = useId();
  const digikeyHintId = useId();
  const index = useRef(lineByDesignator(lines)).current;

  // A part picked on the board brings its line into view (clearing a filter that hides it).
  useEffect(() => {
    if (selection.lineNo === null || selection.source !== 'board') return;
    table.reveal(selection.lineNo);
    requestAnimationFrame(() => body.current?.querySelector(`[data-line="${selection.lineNo}"]`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  }, [selection, table]);

  const onQuery = (value: string) => {
    table.setQuery(value);
    // Typing a designator exactly (R10) also marks that part on the board.
    const lineNo = findDesignator(index, value);
    if (placed && lineNo !== null) selectLine(lineNo, 'search');
  };

  return (
    <div className="bom-table">
      {/* The board and the list share a frame: the board stays in view (beside or above) while the list scrolls; its
          column is as wide as the board's proportions need. */}
      <div className={board ? 'bom-workbench has-board' : 'bom-workbench'} style={board ? ({ '--board-ratio': board.widthMm / board.heightMm } as CSSProperties) : undefined}>
        {board && <BomBoard board={board} parts={parts} lineIndex={index} />}
        <div className="bom-list">
          <div className="bom-tools">
            <div className="field">
              <label htmlFor={filterId}>{t('eda.filter')}</label>
              <input id={filterId} type="search" value={query} onChange={(event) => onQuery(event.target.value)} aria-describedby={hintId} disabled={!hydrated} />
              <small id={hintId} className="muted">{placed ? t('eda.filterHint') : null}</small>
            </div>
            <div className="field boards-field">
              <label htmlFor={boardsId}>{t('eda.boardsCount')}</label>
              <input
                id={boardsId}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_BOARDS}
                step={1}
                value={boardsText}
                onChange={(event) => table.typeBoards(event.target.value)}
                onBlur={table.settleBoards}
                disabled={!hydrated}
              />
            </div>
          </div>
          <p className="muted bom-count" role="status" aria-live="polite">
            {query.trim() ? t('eda.matches', { count: rows.length, total: lines.length }) : t('eda.lines', { count: lines.length })}
          </p>
          <div className="table-scroll">
            <table className="data bom">
              <thead>
                <tr>
                  {columns.map((column) => {
                    const sorted = sort?.column === column ? sort.direction : undefined;
                    return (
                      <th key={column} scope="col" aria-sort={sorted ?? 'none'} className={`col-${column}`}>
                        <button type="button" className="sort-button" onClick={() => table.sortBy(column)} disabled={!hydrated} title={t('eda.sortBy', { column: t(`eda.columns.${column}`) })}>
                          {t(`eda.columns.${column}`)}
                          <span aria-hidden="true" className="sort-mark">{sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : '↕'}</span>
                        </button>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody ref={body}>
                {rows.map((line) => {
                  const selected = selection.lineNo === line.lineNo;
                  const interactive = placed && hydrated;
                  return (
                    <tr
                      key={line.lineNo}
                      data-line={line.lineNo}
                      className={selected ? 'is-selected' : hover === line.lineNo ? 'is-hovered' : undefined}
                      aria-selected={placed ? selected : undefined}
                      onPointerEnter={interactive ? () => hoverLine(line.lineNo) : undefined}
                      onPointerLeave={interactive ? () => hoverLine(null) : undefined}
                    >
                      {columns.map((column) =>
                        column === 'designators' ? (
                          <th key={column} scope="row" className="col-designators">
                            {interactive ? (
                              <button type="button" className="link-button" aria-pressed={selected} onClick={() => selectLine(line.lineNo, 'table')} title={t('eda.showParts', { designators: cellText(line, column) })}>
                                {cellText(line, column)}
                              </button>
                            ) : (
                              cellText(line, column)
                            )}
                            {line.dnp && (
                              <abbr className="chip dnp-mark" title={t('eda.dnpNote')}>
                                {t('eda.dnp')}
                              </abbr>
                            )}
                          </th>
                        ) : (
                          <td key={column} className={`col-${column}`}>
                            <Cell line={line} column={column} boards={boards} />
                          </td>
                        ),
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {rows.length === 0 && <p className="muted">{t('eda.noMatch', { query: query.trim() })}</p>}
        </div>
      </div>
      <div className="bom-export">
        <h3>{t('eda.export')}</h3>
        <ul className="chips">
          {BOM_EXPORT_FORMATS.map((format) => (
            <li key={format}>
              <a className="btn" href={exportHref(projectId, format, boards)} download data-format={format}>
                {t(`eda.exportFormats.${format}`)}
              </a>
            </li>
          ))}
        </ul>
      </div>
      <div className="bom-order" id="order-parts">
        <h3>{t('eda.orderParts.title', { count: boards })}</h3>
        <ul className="chips">
          <li>
            {/* A plain form: it posts without this island's script (for one board until the script runs). */}
            <form method="post" action={DIGIKEY_FAST_ADD_URL} target="_blank" rel="noopener noreferrer">
              {cart.map((field) => (
                <input key={field.name} type="hidden" name={field.name} value={field.value} />
              ))}
              <button type="submit" className="btn" disabled={cart.length === 0} aria-describedby={cart.length === 0 ? digikeyHintId : undefined}>
                {t('eda.orderParts.digikey')}
                <span className="visually-hidden"> {t('eda.order.newTab')}</span>
              </button>
            </form>
          </li>
          {SUPPLIER_UPLOADS.map((supplier) => (
            <li key={supplier.format}>
              <a className="btn" href={exportHref(projectId, supplier.format, boards)} download data-order={supplier.format}>
                {t(`eda.orderParts.${supplier.format}`)}
              </a>
            </li>
          ))}
        </ul>
        <p className="muted" id={digikeyHintId}>
          {/* The spaces between sentences are the translations' own: English has them, Chinese none. */}
          {cart.length === 0 ? t('eda.orderParts.digikeyNone') : null}
          {t('eda.orderParts.uploadHint')}
          {SUPPLIER_UPLOADS.map((supplier, index) => (
            <span key={supplier.format}>
              {index > 0 ? t('eda.orderParts.or') : null}
              <a href={supplier.tool} target="_blank" rel="noopener noreferrer">
                {t(`eda.orderParts.${supplier.format}Tool`)}
              </a>
            </span>
          ))}
          {t('eda.orderParts.end')}
        </p>
      </div>
    </div>
  );
}

/** The bill of materials: sorted, filtered, multiplied for N boards, exported for ordering, tied to the board. */
export default function BomTable({ locale, messages, ...props }: BomTableProps) {
  return (
    <I18nProvider locale={locale} messages={messages}>
      <Table {...props} />
    </I18nProvider>
  );
}
