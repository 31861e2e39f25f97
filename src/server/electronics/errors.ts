import type { BoardErrorKey } from '../../lib/contract/eda.ts';

/**
 * Why a Gerber set could not become a board. `key` is one of the contract's board error keys (the
 * author reads `eda.boardErrors.<key>`); `file` names the file at fault when there is one, as its
 * path inside the upload.
 */
export class BoardError extends Error {
  readonly key: BoardErrorKey;
  readonly file?: string;

  constructor(key: BoardErrorKey, file?: string, detail?: string) {
    super(`${key}${file ? ` (${file})` : ''}${detail ? `: ${detail}` : ''}`);
    this.name = 'BoardError';
    this.key = key;
    if (file !== undefined) this.file = file;
  }
}

/** A file of a Gerber set: its path inside the upload (folders kept) and its bytes. */
export interface SourceFile {
  name: string;
  bytes: Uint8Array;
}
