import { useId, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { moderationTextLimits } from '@shared/schemas/moderation.js';
import { FormAlert } from '@web/components/ui/form-alert.js';
import { ModalDialog } from '@web/components/ui/modal-dialog.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { isApiError } from '@web/lib/api-client.js';
import { textCounter } from '@web/lib/text-counter.js';

export interface ActionDialogProps {
  title: string;
  /** What will happen, and to whom. */
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  tone?: 'primary' | 'danger';
  /**
   * `sent`: a reason is required and sent to the person; `logged`: required, kept in the audit log only;
   * `optional`: may be left out; `none`: no reason asked.
   */
  reason: 'sent' | 'logged' | 'optional' | 'none';
  /** Fields before the reason (a role, a suspension's length). */
  extra?: ReactNode;
  /** Sends the action; rejects with the API's error, which the dialog shows. */
  onConfirm: (reason: string) => Promise<void>;
  onClose: () => void;
  returnFocus?: () => HTMLElement | null;
}

const reasonHints = {
  sent: 'Sent to the person and kept in the audit log.',
  logged: 'Kept in the audit log; the person is not told.',
  optional: 'Optional. Kept in the audit log; the person is not told.',
} as const;

/**
 * Confirms a moderator's or administrator's action, asking for its reason where one is needed (issue:
 * moderation and administration §4): bounded, and said plainly whether it is sent to the person.
 */
export function ActionDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  tone = 'primary',
  reason: reasonMode,
  extra,
  onConfirm,
  onClose,
  returnFocus,
}: ActionDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const bodyId = useId();
  const counter = textCounter(reason, moderationTextLimits.reason);
  const required = reasonMode === 'sent' || reasonMode === 'logged';

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    if (reasonMode !== 'none' && (counter.over || (required && counter.count === 0))) {
      setError(
        counter.over
          ? `Use at most ${moderationTextLimits.reason} characters.`
          : reasonMode === 'sent'
            ? 'Give a reason. It is sent to the person.'
            : 'Give a reason.',
      );
      field.current?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await onConfirm(reason.trim());
    } catch (failure) {
      setBusy(false);
      if (isApiError(failure) && failure.fields.reason) setError(failure.fields.reason);
      else setFormError(failure instanceof Error ? failure.message : 'That did not work.');
    }
  };

  return (
    <ModalDialog
      title={title}
      onClose={onClose}
      initialFocus={reasonMode === 'none' ? cancel : field}
      returnFocus={returnFocus}
      locked={busy}
      describedBy={bodyId}
      className="dialog--reason"
    >
      <div id={bodyId} className="reason-dialog__about">
        {children}
      </div>
      <form
        className="form"
        noValidate
        aria-busy={busy}
        onSubmit={(event) => {
          void onSubmit(event);
        }}
      >
        <FormAlert message={formError} />
        {extra}
        {reasonMode === 'none' ? null : (
          <TextAreaField
            ref={field}
            name="reason"
            label={required ? 'Reason' : 'Reason (optional)'}
            hint={reasonHints[reasonMode]}
            rows={3}
            value={reason}
            counter={counter}
            error={error}
            required={required}
            onChange={(event) => {
              setReason(event.target.value);
              if (error) setError(undefined);
            }}
          />
        )}
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
          <SubmitButton
            busy={busy}
            label={confirmLabel}
            busyLabel={busyLabel}
            tone={tone}
            block={false}
          />
        </div>
      </form>
    </ModalDialog>
  );
}
