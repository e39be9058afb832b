import { useId, useState, type SubmitEvent } from 'react';
import { moderationTextLimits } from '@shared/schemas/moderation.js';
import { FormAlert } from '@web/components/ui/form-alert.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { isApiError } from '@web/lib/api-client.js';
import { textCounter } from '@web/lib/text-counter.js';

/** Adds a private note about the account; moderators and administrators see it, the person never does. */
export function NoteForm({ onAdd }: { onAdd: (body: string) => Promise<void> }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const statusId = useId();
  const counter = textCounter(body, moderationTextLimits.note);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    setSaved(false);
    if (counter.count === 0 || counter.over) {
      setError(
        counter.over ? `Use at most ${moderationTextLimits.note} characters.` : 'Write the note.',
      );
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await onAdd(body.trim());
      setBody('');
      setSaved(true);
    } catch (failure) {
      if (isApiError(failure) && failure.fields.body) setError(failure.fields.body);
      else setFormError(failure instanceof Error ? failure.message : 'That did not work.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="form admin-note-form"
      noValidate
      aria-busy={busy}
      onSubmit={(event) => {
        void onSubmit(event);
      }}
    >
      <FormAlert message={formError} />
      <TextAreaField
        name="body"
        label="Add a note"
        hint="Private to moderators and administrators."
        rows={3}
        value={body}
        counter={counter}
        error={error}
        onChange={(event) => {
          setBody(event.target.value);
          setSaved(false);
          if (error) setError(undefined);
        }}
      />
      <div className="admin-note-form__actions">
        <SubmitButton busy={busy} label="Add note" busyLabel="Adding…" block={false} />
        <p id={statusId} role="status" className="admin-note-form__status">
          {saved ? 'Note added.' : ''}
        </p>
      </div>
    </form>
  );
}
