import { Fragment } from 'react';
import { AppLink } from './app-link.js';
import type { RichTextOptions } from '@web/lib/rich-segments.js';
import { useRichSegments } from '@web/lib/rich-text.js';

interface RichTextProps extends RichTextOptions {
  text: string;
  /** The element around the text: a paragraph for short texts, a div for posts. */
  as?: 'p' | 'div';
  className?: string;
  id?: string;
}

/**
 * User text (bios, posts, comments) with its web addresses, @mentions and #hashtags as links. Built
 * from tokens as React elements, never as HTML; line breaks are kept by CSS. Plain `#tag`s and `@name`s
 * link at once; a text with an address shows as plain text until the link finder is in (ADR 0054), on a
 * first page once the page has settled. Outside links are user content: nofollow and ugc for search
 * engines, and no referrer or opener for the sites they lead to.
 */
export function RichText({
  text,
  as: Element = 'p',
  className,
  id,
  mentions = false,
  hashtags = false,
}: RichTextProps) {
  const segments = useRichSegments(text, { mentions, hashtags });
  return (
    <Element className={className} id={id}>
      {segments.map((segment, index) => {
        switch (segment.kind) {
          case 'text':
            return <Fragment key={index}>{segment.text}</Fragment>;
          case 'link':
            return (
              <a key={index} href={segment.href} rel="nofollow noopener noreferrer ugc">
                {segment.text}
              </a>
            );
          case 'mention':
          case 'hashtag':
            return (
              <AppLink key={index} to={segment.href}>
                {segment.text}
              </AppLink>
            );
        }
      })}
    </Element>
  );
}
