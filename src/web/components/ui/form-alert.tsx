import { useEffect, useRef, type ReactNode } from 'react';

interface FormAlertProps {
  message: string | null;
  children?: ReactNode;
}

/**
 * Form-level error: a live region that exists before it has content (so screen readers announce
 * the change), and takes focus when a message appears so keyboard users land on it.
 */
export function FormAlert({ message, children }: FormAlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  return (
    <div role="alert" className="form-alert-region">
      {message ? (
        <div className="alert alert--error" ref={ref} tabIndex={-1}>
          <p>{message}</p>
          {children}
        </div>
      ) : null}
    </div>
  );
}
