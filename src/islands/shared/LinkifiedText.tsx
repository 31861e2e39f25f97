import { splitText, type TextLink } from '../../lib/text-links.ts';

/**
 * User plain text: React escapes every part, its links (found by the server) become
 * `rel="nofollow ugc noopener"` links, and line breaks show through `white-space: pre-wrap` on
 * the element.
 */
export function LinkifiedText({ text, links, className }: { text: string; links: readonly TextLink[]; className?: string }) {
  return (
    <p className={className}>
      {splitText(text, links).map((part, index) =>
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
