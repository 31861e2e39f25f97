/**
 * Where video uploads in progress live: tus's file store under `DATA_DIR/uploads/tus`, outside
 * the served files. The tus endpoint writes there; the video job reads an upload from there and
 * removes it once the playable file is in storage.
 */
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { getConfig } from '../config.ts';

/** A tus upload not finished within this time is forgotten (and its bytes deleted by housekeeping). */
export const TUS_UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

let store: FileStore | undefined;

export function tusDirectory(): string {
  return path.join(getConfig().dataDir, 'uploads', 'tus');
}

/** The file store of tus uploads. */
export function tusStore(): FileStore {
  store ??= new FileStore({ directory: tusDirectory(), expirationPeriodInMilliseconds: TUS_UPLOAD_EXPIRY_MS });
  return store;
}

/** The file holding the bytes of tus upload `id` (ids are tus's own random hex). */
export function tusFilePath(id: string): string {
  if (!/^[a-zA-Z0-9_-]{8,128}$/.test(id)) throw new Error(`unsafe tus upload id: ${id}`);
  return path.join(tusDirectory(), id);
}

/** Removes the bytes and the record of a tus upload (used, refused or abandoned). */
export async function removeTusUpload(id: string): Promise<void> {
  // tus's own `remove` stops at a missing bytes file and leaves the record behind: drop that too.
  const files = tusStore();
  await files.remove(id).catch(() => files.configstore.delete(id).catch(() => undefined));
}
