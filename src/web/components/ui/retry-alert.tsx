import type { ReactNode } from 'react';

interface RetryAlertProps {
  /** What failed and why. */
  children: ReactNode;
  onRetry: () => void;
  className?: string;
}

/** A read that failed inside a page or a dialog (the whole-page kind is LoadErrorPanel), and Try again. */
export function RetryAlert({ children, onRetry, className }: RetryAlertProps) {
  return (
    <div
      className={className ? `alert alert--error ${className}` : 'alert alert--error'}
      role="alert"
    >
      {children}
      <button type="button" className="button button--secondary button--small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
