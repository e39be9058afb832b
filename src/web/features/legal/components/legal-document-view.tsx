import Markdown, { type Components } from 'react-markdown';
import type { LegalDocument } from '@shared/schemas/instance.js';
import { longDateLabel } from '@web/lib/relative-time.js';

// The page title is the one <h1>; headings inside the document start one level below it.
const components: Components = {
  h1: 'h2',
  a: ({ node: _node, children, ...props }) => (
    <a {...props} rel="noopener noreferrer">
      {children}
    </a>
  ),
};

/** Drops a first "# Title" line that repeats the page title, so the title is not shown twice. */
export function withoutRepeatedTitle(markdown: string, title: string): string {
  const match = /^\s*#\s+(.+?)\s*#*\s*(?:\r?\n|$)/.exec(markdown);
  if (!match?.[1] || match[1].trim().toLowerCase() !== title.trim().toLowerCase()) return markdown;
  return markdown.slice(match[0].length);
}

interface LegalDocumentViewProps {
  document: LegalDocument;
}

/** A legal document as long-form text. Raw HTML in the markdown is dropped, never rendered. */
export function LegalDocumentView({ document }: LegalDocumentViewProps) {
  const updated = document.updatedAt ? new Date(document.updatedAt) : null;
  return (
    <article className="prose" aria-labelledby="legal-title">
      <header className="prose__header">
        <h1 id="legal-title">{document.title}</h1>
        {updated && !Number.isNaN(updated.getTime()) ? (
          <p className="prose__meta">
            Last updated{' '}
            <time dateTime={document.updatedAt ?? undefined}>{longDateLabel(updated)}</time>
          </p>
        ) : null}
      </header>
      <Markdown skipHtml components={components}>
        {withoutRepeatedTitle(document.markdown, document.title)}
      </Markdown>
    </article>
  );
}
