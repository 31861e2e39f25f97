import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SchematicSheet } from '../../lib/contract/schemas/eda.ts';

export interface SheetListProps {
  sheets: SchematicSheet[];
  page: number;
  /** The address that opens sheet `page` (works without JavaScript). */
  hrefOf: (page: number) => string;
  /** With JavaScript: opens the sheet in place instead of following its address. */
  onOpen?: (page: number) => void;
}

/** The sheets by page number and name, the one shown marked: links that also work without JavaScript. */
export function SheetList({ sheets, page, hrefOf, onOpen }: SheetListProps) {
  const { t } = useTranslation();
  const open = (event: MouseEvent<HTMLAnchorElement>, next: number) => {
    if (!onOpen || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onOpen(next);
  };
  return (
    <nav className="sheet-list" aria-label={t('schematic.sheets')}>
      <ol>
        {sheets.map((sheet) => (
          <li key={sheet.page}>
            <a href={hrefOf(sheet.page)} aria-current={sheet.page === page ? 'page' : undefined} onClick={(event) => open(event, sheet.page)}>
              <span className="sheet-page">{sheet.page}</span> <span className="sheet-name">{sheet.name}</span>
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The link that downloads a sheet's drawing as KiCad made it. */
export function SheetDownload({ sheet }: { sheet: SchematicSheet }) {
  const { t } = useTranslation();
  return (
    <a className="btn sheet-download" href={sheet.svg} download={`${sheet.page}-${sheet.name}.svg`}>
      {t('schematic.download', { page: sheet.page })}
    </a>
  );
}

/**
 * The schematic without its viewer (without JavaScript, and until the viewer's code has come):
 * the sheet list and the sheet shown as a picture, with its download.
 */
export function SheetPages({ sheets, page, hrefOf }: Omit<SheetListProps, 'onOpen'>) {
  const { t } = useTranslation();
  const sheet = sheets.find((candidate) => candidate.page === page) ?? sheets[0];
  if (!sheet) return null;
  return (
    <div className="schematic">
      <SheetList sheets={sheets} page={sheet.page} hrefOf={hrefOf} />
      <figure className="sheet-figure">
        <img
          src={sheet.svg}
          alt={t('schematic.sheetAlt', { page: sheet.page, name: sheet.name })}
          width={Math.round(sheet.widthMm * 4)}
          height={Math.round(sheet.heightMm * 4)}
          loading="lazy"
          decoding="async"
        />
        <figcaption>
          <SheetDownload sheet={sheet} />
        </figcaption>
      </figure>
    </div>
  );
}
