import { splitLinks } from '../../lib/linkify.ts';

/**
 * User plain text: React escapes every part, URLs become `rel="nofollow ugc noopener"` links,
 * and line breaks show through `white-space: pre-wrap` on the element.
 */
export function LinkifiedText({ text, className }: { text: string; className?: string }) {
  return (
    <p className={className}>
      {splitLinks(text).map((part, index) =>
        part.type === 'link' ? (
          <a key={index} href={part.href} rel="nofollow ugc noopener" target="_blank">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}
