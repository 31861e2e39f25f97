/**
 * The creation form's live preview: the same Markdown parser and allow-list as the server
 * (which renders and sanitizes again when saving), with DOMPurify in the browser.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { ALLOWED_ATTRIBUTES, ALLOWED_SCHEMES, ALLOWED_TAGS, EXTERNAL_REL } from './markdown-rules.ts';

const md = new MarkdownIt({ html: true, linkify: true, typographer: false, breaks: false });
const allowedAttributes = [...new Set(Object.values(ALLOWED_ATTRIBUTES).flat())];
const scheme = new RegExp(`^(?:(?:${ALLOWED_SCHEMES.join('|')}):|[^a-z]|[a-z+.-]+(?:[^a-z+.\\-:]|$))`, 'i');

let purifier: ReturnType<typeof DOMPurify> | null = null;

function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (!element.getAttributeNames) return;
    // Per-tag attributes, as the server allows them.
    const allowed = ALLOWED_ATTRIBUTES[element.tagName.toLowerCase()] ?? [];
    for (const name of element.getAttributeNames()) {
      if (!allowed.includes(name)) element.removeAttribute(name);
    }
    const style = element.getAttribute('style');
    if (style !== null && !/^text-align:\s*(left|right|center);?$/.test(style.trim())) element.removeAttribute('style');
    const className = element.getAttribute('class');
    if (className !== null && !/^language-[a-z0-9+#-]+$/.test(className)) element.removeAttribute('class');
    for (const name of ['href', 'src']) {
      const value = element.getAttribute?.(name);
      // DOMPurify lets data: images through by default; the server never does.
      if (value && /^\s*data:/i.test(value)) element.removeAttribute(name);
    }
    if (element.tagName === 'A') {
      const href = element.getAttribute('href') ?? '';
      if (/^https?:\/\//i.test(href) && new URL(href, location.href).origin !== location.origin) element.setAttribute('rel', EXTERNAL_REL);
      else element.removeAttribute('rel');
    }
    if (element.tagName === 'IMG') {
      if (!element.getAttribute('src')) element.remove();
      else element.setAttribute('loading', 'lazy');
    }
  });
  return purifier;
}

/** Markdown to sanitized HTML for the live preview (browser only). */
export function renderPreview(source: string): string {
  if (typeof window === 'undefined') return '';
  return getPurifier().sanitize(md.render(source), {
    ALLOWED_TAGS,
    ALLOWED_ATTR: allowedAttributes,
    ALLOWED_URI_REGEXP: scheme,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
}
