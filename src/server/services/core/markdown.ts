/**
 * Project descriptions: Markdown rendered with markdown-it and sanitized with an allow-list.
 * The HTML is rendered once when a project, draft preview or edit is saved and stored; pages
 * never recompute it.
 */
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { inArray } from 'drizzle-orm';
import { getConfig } from '../../config.ts';
import { getDb } from '../../db/client.ts';
import { uploads } from '../../db/schema/index.ts';
import { fileUrl } from '../../storage/index.ts';
import { ALLOWED_ATTRIBUTES, ALLOWED_SCHEMES, ALLOWED_TAGS, EXTERNAL_REL } from '../../../lib/markdown-rules.ts';

// Raw HTML is allowed in the Markdown (tables, <details>, <kbd>, <sub> …); the sanitizer below
// decides what survives. markdown-it itself already refuses javascript:/vbscript:/file: links.
const md = new MarkdownIt({ html: true, linkify: true, typographer: false, breaks: false });

export interface ImageSize {
  width: number;
  height: number;
}

const FILES_PREFIX = fileUrl('');

/** Whether `href` leaves the site (an absolute http(s) URL on another host). */
function isExternal(href: string): boolean {
  if (!/^https?:\/\//i.test(href)) return false;
  const site = getConfig().siteUrl;
  if (!site) return true;
  try {
    return new URL(href).host !== new URL(site).host;
  } catch {
    return true;
  }
}

const dimension = (value: string | undefined) => (value && /^\d{1,5}$/.test(value) ? value : undefined);

function sanitizeOptions(sizes: Map<string, ImageSize>): sanitizeHtml.IOptions {
  return {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: ALLOWED_ATTRIBUTES,
    allowedStyles: {
      th: { 'text-align': [/^(left|right|center)$/] },
      td: { 'text-align': [/^(left|right|center)$/] },
    },
    allowedClasses: { code: [/^language-[a-z0-9+#-]+$/] },
    // No data: anywhere, no javascript:, no protocol-relative URLs.
    allowedSchemes: ALLOWED_SCHEMES,
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // An image whose source was refused (data:, javascript:) is dropped rather than left empty.
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
    // Drop the content of these entirely, not just the tags.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'template', 'form', 'select'],
    transformTags: {
      a: (tagName, attribs) => {
        const next: Record<string, string> = { ...attribs };
        delete next.rel;
        if (next.href && isExternal(next.href)) next.rel = EXTERNAL_REL;
        return { tagName, attribs: next };
      },
      img: (tagName, attribs) => {
        const next: Record<string, string> = { ...attribs, loading: 'lazy', decoding: 'async' };
        const known = attribs.src ? sizes.get(attribs.src) : undefined;
        const width = dimension(attribs.width);
        const height = dimension(attribs.height);
        delete next.width;
        delete next.height;
        if (known) {
          next.width = String(known.width);
          next.height = String(known.height);
        } else if (width && height) {
          next.width = width;
          next.height = height;
        }
        return { tagName, attribs: next };
      },
    },
  };
}

/**
 * Markdown to sanitized HTML (pure: no I/O). `sizes` gives the pixel size of images by their
 * URL so the browser can reserve their space.
 */
export function renderMarkdown(source: string, sizes: Map<string, ImageSize> = new Map()): string {
  return sanitizeHtml(md.render(source), sanitizeOptions(sizes));
}

/** The plain text of sanitized HTML: tags removed, entities decoded, whitespace collapsed. */
export function htmlToText(html: string): string {
  const text = sanitizeHtml(html.replace(/<\/(p|h[1-6]|li|td|th|tr|pre|blockquote|dt|dd|summary)>|<br\s*\/?>/gi, ' $&'), {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript'],
  });
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Image URLs a Markdown source refers to (Markdown images and raw `<img>`), in order. */
export function collectImageUrls(source: string): string[] {
  const urls = new Set<string>();
  const walk = (tokens: ReturnType<typeof md.parse>) => {
    for (const token of tokens) {
      if (token.type === 'image') {
        const src = token.attrGet('src');
        if (src) urls.add(String(src));
      }
      if (token.children) walk(token.children);
      if ((token.type === 'html_block' || token.type === 'html_inline') && token.content) {
        for (const match of token.content.matchAll(/<img\b[^>]*?\ssrc\s*=\s*["']?([^"'\s>]+)/gi)) urls.add(match[1]!);
      }
    }
  };
  walk(md.parse(source, {}));
  return [...urls];
}

/**
 * Images in stored (sanitized) description HTML, in order, each once: the gallery of a project
 * page. `width` is the one the HTML gives (an uploaded image's own, filled in when it was saved).
 */
export function imagesInHtml(html: string): { src: string; width: number | null }[] {
  const images = new Map<string, number | null>();
  for (const [tag] of html.matchAll(/<img\b[^>]*>/g)) {
    const src = /\ssrc="([^"]+)"/.exec(tag)?.[1]?.replace(/&amp;/g, '&');
    if (!src || images.has(src)) continue;
    const width = Number(/\swidth="(\d{1,5})"/.exec(tag)?.[1] ?? NaN);
    images.set(src, Number.isFinite(width) && width > 0 ? width : null);
  }
  return [...images].map(([src, width]) => ({ src, width }));
}

/** Pixel sizes of images stored by this site (uploads), keyed by their public URL. */
export async function lookupImageSizes(urls: string[]): Promise<Map<string, ImageSize>> {
  const sizes = new Map<string, ImageSize>();
  const keys = urls.filter((url) => url.startsWith(FILES_PREFIX)).map((url) => url.slice(FILES_PREFIX.length));
  if (keys.length === 0) return sizes;
  const rows = await getDb()
    .select({ key: uploads.storageKey, width: uploads.width, height: uploads.height })
    .from(uploads)
    .where(inArray(uploads.storageKey, keys.slice(0, 200)));
  for (const row of rows) {
    if (row.width && row.height) sizes.set(fileUrl(row.key), { width: row.width, height: row.height });
  }
  return sizes;
}

/** Renders a description for storage: sanitized HTML (image sizes filled in) and its plain text. */
export async function renderDescription(source: string): Promise<{ html: string; text: string }> {
  const sizes = await lookupImageSizes(collectImageUrls(source));
  const html = renderMarkdown(source, sizes);
  return { html, text: htmlToText(html) };
}
