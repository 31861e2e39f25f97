import { useDeferredValue, useMemo, type ClipboardEvent, type RefObject } from 'react';
import { renderPreview } from '../../lib/markdown-preview.ts';
import { useHydrated } from '../use-hydrated.ts';

/** A picture among the files a member pastes, drops or chooses. */
export const isImage = (file: File) => file.type.startsWith('image/');

/** Where the pictures go: the store uploads them into the text at `selection` and answers where the caret goes next (null: nothing inserted). */
export type UploadAt = (images: File[], selection: { start: number; end: number }) => number | null;

/**
 * The Markdown editor's preview and pictures (`MarkdownEditor.tsx`): a sanitized preview of the text once the code has come (DOMPurify needs a browser, so the
 * server's HTML has none), pictures uploaded at the caret, which then moves past what was
 * inserted, and pictures pasted from the clipboard uploaded likewise.
 */
export function useMarkdownImages(textarea: RefObject<HTMLTextAreaElement | null>, text: string, uploadAt: UploadAt) {
  const hydrated = useHydrated();
  const deferred = useDeferredValue(text);
  const previewHtml = useMemo(() => (hydrated ? renderPreview(deferred) : ''), [hydrated, deferred]);

  const uploadImages = (images: File[]) => {
    const element = textarea.current;
    const end = text.length;
    const caret = uploadAt(images, { start: element?.selectionStart ?? end, end: element?.selectionEnd ?? end });
    if (caret === null || !element) return;
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(caret, caret);
    });
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const images = [...event.clipboardData.files].filter(isImage);
    if (images.length === 0) return;
    event.preventDefault();
    uploadImages(images);
  };
  return { previewHtml, uploadImages, onPaste };
}
