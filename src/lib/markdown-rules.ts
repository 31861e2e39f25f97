/**
 * What a project description may contain after sanitizing — shared by the server renderer
 * (sanitize-html, the stored HTML) and the form's live preview (DOMPurify), so both agree.
 */
export const ALLOWED_TAGS = [
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'ul', 'ol', 'li',
  'strong', 'em', 'b', 'i', 's', 'del', 'ins', 'sub', 'sup', 'kbd', 'mark', 'small', 'a', 'img',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'details', 'summary', 'dl', 'dt', 'dd',
];

/** Attributes allowed per tag. */
export const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
  th: ['align', 'style'],
  td: ['align', 'style'],
  ol: ['start'],
  code: ['class'],
  details: ['open'],
};

/** URL schemes allowed in links (relative URLs are always allowed; never `data:` or `javascript:`). */
export const ALLOWED_SCHEMES = ['http', 'https', 'mailto'];

/** The rel of links that leave the site: no endorsement, user content, no window.opener. */
export const EXTERNAL_REL = 'nofollow ugc noopener';
