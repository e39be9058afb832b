import { useId, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { moderationTextLimits } from '@shared/schemas/moderation.js';
import { FormAlert } from '@web/components/ui/form-alert.js';
import { ModalDialog } from '@web/components/ui/modal-dialog.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { isApiError } from '@web/lib/api-client.js';
import { textCounter } from '@web/lib/text-counter.js';

interface ReasonDialogProps {
  title: string;
  /** What will happen, and to whom. */
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  tone?: 'primary' | 'danger';
  /** Fields before the reason (the suspension's length). */
  extra?: ReactNode;
  /** Sends the action; rejects with the API's error, which the dialog shows. */
  onConfirm: (reason: string) => Promise<void>;
  onClose: () => void;
  returnFocus?: () => HTMLElement | null;
}

/**
 * A moderator's action asks for its reason first (issue: moderation and administration §4): the reason is
 * mandatory, bounded, and sent to the person acted on, which the dialog says.
 */
export function ReasonDialog({
  title,
  children,
  confirmLabel,
  busyLabel,
  tone = 'primary',
  extra,
  onConfirm,
  onClose,
  returnFocus,
}: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const bodyId = useId();
  const counter = textCounter(reason, moderationTextLimits.reason);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    if (counter.count === 0 || counter.over) {
      setError(
        counter.over
          ? `Use at most ${moderationTextLimits.reason} characters.`
          : 'Give a reason. It is sent to the person.',
      );
      field.current?.focus();
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await onConfirm(reason);
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
      initialFocus={field}
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
        <TextAreaField
          ref={field}
          name="reason"
          label="Reason"
          hint="Sent to the person and kept in the audit log."
          rows={3}
          value={reason}
          counter={counter}
          error={error}
          onChange={(event) => {
            setReason(event.target.value);
            if (error) setError(undefined);
          }}
        />
        <div className="dialog__actions">
          <button
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
