/**
 * Characters XML 1.0 forbids anywhere, even escaped: C0 controls but tab, newline and carriage
 * return, lone surrogates, U+FFFE and U+FFFF. Member text may carry them; a feed or sitemap with
 * one is refused whole by a strict parser, so they are dropped.
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for XML element content and attribute values. */
export function escapeXml(value: string): string {
  return value.replace(NOT_XML, '').replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!);
}
