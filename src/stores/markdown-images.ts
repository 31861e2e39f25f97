/**
 * Pictures in a Markdown text being written (a project's description, a build log): uploaded with
 * purpose `image` and written into the text where the caret is. Shared by the stores of every
 * Markdown editor, so they all behave alike.
 */
import type { TFunction } from 'i18next';
import { fail, warn, type Notice } from '../lib/notice.ts';
import { PICTURE_MAX_BYTES } from '../lib/pictures.ts';
import { uploadFile } from '../lib/upload-client.ts';

/**
 * `text` inserted as a paragraph of its own at the selection `start`…`end` of `value` (replacing
 * it): a blank line before and after, so a picture inserted after a list or inside a sentence is
 * never read as part of the list item or the paragraph around it. With the new value and where the
 * caret goes (the line after the picture).
 */
export function insertLine(value: string, start: number, end: number, text: string): { value: string; caret: number } {
  const before = value.slice(0, start);
  const after = value.slice(end);
  const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const inserted = `${lead}${text}\n`;
  const trail = after === '' || after.startsWith('\n') ? '' : '\n';
  return { value: before + inserted + trail + after, caret: start + inserted.length };
}

/** The Markdown text an editor's store holds, as the upload reads and writes it. */
export interface MarkdownText {
  read: () => string;
  write: (value: string) => void;
  /** Says why a picture was left out (too large, the upload failed). */
  notify: (notice: Notice) => void;
  t: TFunction;
}

let counter = 0;

/**
 * Uploads `list` into the text at the selection: a placeholder line at once, replaced by the
 * image once uploaded (or removed, saying why). Returns where the caret goes.
 */
export function uploadMarkdownImages(list: File[], selection: { start: number; end: number }, text: MarkdownText): number | null {
  let caret: number | null = null;
  let { start, end } = selection;
  for (const file of list) {
    if (file.size > PICTURE_MAX_BYTES) {
      text.notify(warn('form.imageTooLarge', { name: file.name }));
      continue;
    }
    const alt = file.name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '') || text.t('form.imageAlt');
    const placeholder = `![${text.t('form.uploadingImage', { name: alt })}](#upload-${Date.now().toString(36)}${(counter += 1)})`;
    const inserted = insertLine(text.read(), start, end, placeholder);
    text.write(inserted.value);
    caret = start = end = inserted.caret;
    uploadFile(file, { purpose: 'image', name: file.name })
      .promise.then((result) => text.write(text.read().replace(placeholder, `![${alt}](${result.url})`)))
      .catch((error: unknown) => {
        text.write(text.read().replace(`${placeholder}\n`, '').replace(placeholder, ''));
        text.notify(fail(error, 'form.imageFailed', { name: file.name }));
      });
  }
  return caret;
}
