import type { BoardErrorKey, BomErrorKey } from './contract/eda.ts';
import type { Translate } from './i18n.ts';

/**
 * Board errors whose message names the file at fault (`{{file}}`). A board can fail with one of
 * them and no file known (a stored file gone, an error raised before any file was opened), so
 * each also has a wording without a file (`eda.boardErrorsUnnamed.<key>`): never "The file  is…".
 */
export const FILE_NAMING_BOARD_ERRORS: ReadonlySet<BoardErrorKey> = new Set<BoardErrorKey>(['not_gerber', 'unreadable']);

/** Why a board failed, in the reader's language, naming the file at fault when there is one. */
export function boardErrorText(t: Translate, key: BoardErrorKey | undefined, file: string | null | undefined): string {
  const reason = key ?? 'render_failed';
  const name = file?.trim();
  if (FILE_NAMING_BOARD_ERRORS.has(reason) && !name) return t(`eda.boardErrorsUnnamed.${reason}`);
  return t(`eda.boardErrors.${reason}`, { file: name ?? '' });
}

/**
 * Why a BOM could not be read. Unmatched columns are listed as found; a file without any row of
 * column names says so instead of "Columns found: .".
 */
export function bomErrorText(t: Translate, key: BomErrorKey, foundColumns: readonly string[] | undefined): string {
  const found = (foundColumns ?? []).map((column) => column.trim()).filter(Boolean);
  if (key === 'no_columns' && found.length === 0) return t('eda.bomNoHeader');
  return t(`eda.bomErrors.${key}`, { columns: found.join(', ') });
}
