import type { ReactNode, SubmitEvent } from 'react';
import { FormAlert } from './form-alert.js';

/**
 * A form the app's way: the browser's own validation off (ours shows inline errors), busy while it
 * submits, and the form-level error announced first.
 */
export function FormShell({
  busy,
  error,
  onSubmit,
  className = 'form',
  children,
}: {
  busy: boolean;
  error: string | null;
  onSubmit: (event: SubmitEvent<HTMLFormElement>) => Promise<void>;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      className={className}
      noValidate
      aria-busy={busy}
      onSubmit={(event) => {
        void onSubmit(event);
      }}
    >
      <FormAlert message={error} />
      {children}
    </form>
  );
}
