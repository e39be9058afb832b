import { useId, useRef, type ReactNode } from 'react';
import { BusyLabel } from './busy-label.js';
import { ModalDialog } from './modal-dialog.js';

interface ConfirmDialogProps {
  /** The question: "Delete this post?" */
  title: string;
  /** What happens if the reader goes ahead. */
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  /** The action is on its way: both buttons wait, and Escape does not hide the outcome. */
  busy: boolean;
  /** Why the action failed; the dialog stays open to try again or cancel. */
  error: string | null;
  onConfirm: () => void;
  /** Cancel, Escape, or the backdrop. */
  onClose: () => void;
  /** Where focus goes back to; the element focused before opening otherwise. */
  returnFocus?: () => HTMLElement | null;
}

/**
 * A destructive action asks first (issue: posts §1, §3). Cancel comes first and has the focus, so
 * Enter never goes ahead by accident.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  busy,
  error,
  onConfirm,
  onClose,
  returnFocus,
}: ConfirmDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  const bodyId = useId();
  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      initialFocus={cancel}
      returnFocus={returnFocus}
      closeButton={false}
      locked={busy}
      describedBy={bodyId}
      className="dialog--confirm"
    >
      <div id={bodyId}>{children}</div>
      <div role="alert" className="form-alert-region">
        {error ? <p className="alert alert--error">{error}</p> : null}
      </div>
      <div className="dialog__actions">
        <button
          ref={cancel}
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={onClose}
        >
          Cancel
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={busy}
          aria-busy={busy}
          onClick={onConfirm}
        >
          <BusyLabel busy={busy} label={confirmLabel} busyLabel={busyLabel} />
        </button>
      </div>
    </ModalDialog>
  );
}
