/** A file name safe for a `Content-Disposition` header, in ASCII and in UTF-8. */
export function contentDisposition(name: string): string {
  const clean = name.replace(/[\u0000-\u001F\u007F"\\/]/g, '_').trim() || 'download';
  const ascii = clean.replace(/[^\x20-\x7E]/g, '_').replace(/[%;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
