import { BusyLabel } from './busy-label.js';

interface SubmitButtonProps {
  busy: boolean;
  label: string;
  busyLabel: string;
  /** Full width (the default, for narrow forms), or sized to its label. */
  block?: boolean;
  /** `danger` for a destructive action. */
  tone?: 'primary' | 'danger';
  disabled?: boolean;
  /** A tooltip, such as the keyboard shortcut that sends the form too. */
  title?: string;
  /** aria-keyshortcuts: the keys that press this button from the form's field. */
  keyShortcuts?: string;
}

/** The form's primary button: disabled and relabelled while the request runs. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  block = true,
  tone = 'primary',
  disabled = false,
  title,
  keyShortcuts,
}: SubmitButtonProps) {
  return (
    <button
      type="submit"
      className={`button button--${tone}${block ? ' button--block' : ''}`}
      disabled={busy || disabled}
      aria-busy={busy}
      title={title}
      aria-keyshortcuts={keyShortcuts}
    >
      <BusyLabel busy={busy} label={label} busyLabel={busyLabel} />
    </button>
  );
}
