import type { ReactNode } from 'react';

interface FormStatusProps {
  /** The message with anything it links to; null while there is none. */
  children: ReactNode | null;
  /** `success` for a change that was made, `info` for anything else worth saying. */
  tone?: 'success' | 'info';
}

/**
 * A form's outcome message: a polite live region that exists before it has content, so screen
 * readers announce the message when it appears, without taking focus from where the user is.
 */
export function FormStatus({ children, tone = 'success' }: FormStatusProps) {
  return (
    <div role="status" className="form-status-region">
      {children ? <div className={`alert alert--${tone}`}>{children}</div> : null}
    </div>
  );
}
