import type { ReactNode } from 'react';

interface StatusPanelProps {
  title: string;
  /** 1 when the panel is the page itself (not-found, errors), 2 or 3 inside a page (empty states). */
  headingLevel?: 1 | 2 | 3;
  tone?: 'neutral' | 'error';
  icon?: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
}

/** The designed empty, not-found and error states share this layout. */
export function StatusPanel({
  title,
  headingLevel = 2,
  tone = 'neutral',
  icon,
  children,
  actions,
}: StatusPanelProps) {
  const Heading = (['h1', 'h2', 'h3'] as const)[headingLevel - 1] ?? 'h2';
  return (
    <section className={`status-panel status-panel--${tone}`}>
      {icon ? (
        <div className="status-panel__icon" aria-hidden="true">
          {icon}
        </div>
      ) : null}
      <Heading className="status-panel__title">{title}</Heading>
      {children ? <div className="status-panel__body">{children}</div> : null}
      {actions ? <div className="status-panel__actions">{actions}</div> : null}
    </section>
  );
}
