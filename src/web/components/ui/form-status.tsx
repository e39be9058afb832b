import type { ReactNode } from 'react';
import { useSelfClearing } from '@web/lib/use-self-clearing.js';

/** The state a self-clearing message is shown from, and how to clear it. */
export interface AutoClear {
  /** The state value behind the message (null when none): each new value is shown for the full time. */
  notice: unknown;
  clear: () => void;
}

interface FormStatusProps {
  /** The message with anything it links to; null while there is none. */
  children: ReactNode | null;
  /** `success` for a change that was made, `info` for anything else worth saying. */
  tone?: 'success' | 'info';
  /** Lets the message clear itself after a readable while (not while pointed at or focused). */
  autoClear?: AutoClear;
}

/**
 * A form's outcome message: a polite live region that exists before it has content, so screen
 * readers announce the message when it appears, without taking focus from where the user is.
 */
export function FormStatus({ children, tone = 'success', autoClear }: FormStatusProps) {
  const hold = useSelfClearing(autoClear?.notice ?? null, () => {
    autoClear?.clear();
  });
  return (
    <div role="status" className="form-status-region" {...(autoClear ? hold : {})}>
      {children ? <div className={`alert alert--${tone}`}>{children}</div> : null}
    </div>
  );
}
