import { Fragment, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPLIER_COLUMNS, supplierUrl } from '../../stores/eda-bom.ts';
import type { EdaSelection } from '../../stores/eda-selection.ts';
import { partOf } from '../../stores/eda-views.ts';
import type { BomLine, SchematicSheet, SchematicSymbol } from '../../lib/contract/schemas/eda.ts';

export interface PartDetailsProps {
  symbols: SchematicSymbol[];
  lines: BomLine[];
  sheets: SchematicSheet[];
  selection: EdaSelection;
  /** Upper-cased designators the board places. */
  placed: ReadonlySet<string>;
  onShowOnBoard: () => void;
  /** Brings the part's symbol to the middle of its sheet. */
  onShowSymbol: (symbol: SchematicSymbol) => void;
}

const TEXT_FIELDS = ['manufacturer', 'mpn'] as const;

/** A footprint name (`Package_SO:TSSOP-16_4.4x5mm`) that wraps after its `:` and `_` rather than mid-word. */
function breakable(name: string): ReactNode[] {
  return name.split(/(?<=[:_])/).flatMap((piece, index) => (index === 0 ? [piece] : [<wbr key={index} />, piece]));
}

/** The part picked (in the schematic, on the board, in the BOM): its BOM line, where it is drawn, and a way to the board. */
export function PartDetails({ symbols, lines, sheets, selection, placed, onShowOnBoard, onShowSymbol }: PartDetailsProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const part = partOf(selection, symbols, lines);
  if (!part) {
    return (
      <div className="part-details is-empty">
        <p className="muted">{t('schematic.part.hint')}</p>
      </div>
    );
  }
  const { ref, symbol, line } = part;
  const value = line?.value || symbol?.value || '';
  const footprint = line?.footprint || symbol?.footprint || '';
  const dnp = Boolean(symbol?.dnp || line?.dnp);
  const sheet = symbol ? sheets.find((candidate) => candidate.page === symbol.sheet) : undefined;
  const others = line?.designators.filter((designator) => designator.toUpperCase() !== ref.toUpperCase()) ?? [];
  const facts: Array<[string, ReactNode]> = [];
  if (value) facts.push([t('schematic.part.value'), value]);
  if (footprint) facts.push([t('schematic.part.footprint'), <span className="part-footprint">{breakable(footprint)}</span>]);
  for (const field of TEXT_FIELDS) if (line?.[field]) facts.push([t(`schematic.part.${field}`), line[field]]);
  for (const column of SUPPLIER_COLUMNS) {
    const code = line?.[column];
    if (code) facts.push([t(`schematic.part.${column}`), <a href={supplierUrl(column, code)} rel="noopener nofollow" target="_blank">{code}</a>]);
  }
  if (line?.description) facts.push([t('schematic.part.description'), line.description]);
  if (sheet && symbol) {
    facts.push([
      t('schematic.part.sheet'),
      <button type="button" className="link-button" onClick={() => onShowSymbol(symbol)}>{t('schematic.sheetItem', { page: sheet.page, name: sheet.name })}</button>,
    ]);
  }
  const onBoard = line ? line.designators.some((designator) => placed.has(designator.toUpperCase())) : placed.has(ref.toUpperCase());
  return (
    <aside className="part-details" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {ref}
        {dnp && <span className="dnp-badge" title={t('schematic.part.dnpNote')}>{t('schematic.part.dnp')}</span>}
      </h3>
      <dl className="facts">
        {facts.map(([label, content]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{content}</dd>
          </Fragment>
        ))}
      </dl>
      {dnp && <p className="muted">{t('schematic.part.dnpNote')}</p>}
      {line ? (
        others.length > 0 && <p className="muted">{t('schematic.part.sameLine', { designators: others.join(', ') })}</p>
      ) : (
        <p className="muted">{t('schematic.part.notInBom')}</p>
      )}
      {onBoard ? (
        <button type="button" className="btn" onClick={onShowOnBoard}>{t('schematic.part.showOnBoard')}</button>
      ) : (
        <p className="muted">{t('schematic.part.notPlaced')}</p>
      )}
    </aside>
  );
}
