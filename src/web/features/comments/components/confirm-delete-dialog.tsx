import { useEffect, useEffectEvent, useId, useRef } from 'react';

interface ConfirmDeleteDialogProps {
  /** Says what goes: "Its 3 replies will be deleted too." */
  detail: string | null;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  /** Escape, Cancel, or the dialog closing for any other reason. */
  onClose: () => void;
}

/**
 * The confirmation before a comment is deleted: a native <dialog> opened with showModal() (decision
 * 0006: nothing may inject <style> under the CSP). The browser makes the page inert behind it and
 * closes it on Escape; Cancel comes first, so it has focus when the dialog opens. Mounting opens it.
 */
export function ConfirmDeleteDialog({
  detail,
  busy,
  error,
  onConfirm,
  onClose,
}: ConfirmDeleteDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const close = useEffectEvent(onClose);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const onNativeClose = () => {
      close();
    };
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="dialog dialog--confirm"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        // Escape while the deletion is on its way would hide its outcome.
        if (busy) event.preventDefault();
      }}
    >
      <h2 id={titleId} className="dialog__title">
        Delete this comment?
      </h2>
      <p id={bodyId}>
        {detail ? `${detail} ` : ''}
        This can&apos;t be undone.
      </p>
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="dialog__actions">
        <button
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
          {busy ? (
            <>
              <span className="spinner" aria-hidden="true" />
              Deleting…
            </>
          ) : (
            'Delete'
          )}
        </button>
      </div>
    </dialog>
  );
}
