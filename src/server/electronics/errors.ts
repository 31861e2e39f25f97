import type { BoardErrorKey } from '../../lib/contract/eda.ts';

/**
 * Why a Gerber set could not become a board. `key` is one of the contract's board error keys (the
 * author reads `eda.boardErrors.<key>`); `file` names the file at fault when there is one, as its
 * path inside the upload.
 */
export class BoardError extends Error {
  readonly key: BoardErrorKey;
  readonly file?: string;
  /**
   * The renderer broke in a way the files do not explain (its worker threw outside any file, or
   * died): unlike a verdict on the files (no outline, not a Gerber, a time or memory limit), such
   * a failure may pass, so the board job tries once more before failing the board.
   */
  readonly crash: boolean;

  constructor(key: BoardErrorKey, file?: string, detail?: string, options: { crash?: boolean } = {}) {
    super(`${key}${file ? ` (${file})` : ''}${detail ? `: ${detail}` : ''}`);
    this.name = 'BoardError';
    this.key = key;
    if (file !== undefined) this.file = file;
    this.crash = options.crash ?? false;
  }
}

/** A file of a Gerber set: its path inside the upload (folders kept) and its bytes. */
export interface SourceFile {
  name: string;
  bytes: Uint8Array;
}
