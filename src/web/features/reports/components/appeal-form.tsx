import { useState, type SubmitEvent } from 'react';
import { moderationTextLimits } from '@shared/schemas/moderation.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { isApiError } from '@web/lib/api-client.js';
import { textCounter } from '@web/lib/text-counter.js';
import { useAppealSuspension } from '../api/appeal-suspension.js';

/** The one appeal of a suspension (issue: moderation and administration §5): a short text. */
export function AppealForm({ uid }: { uid: string }) {
  const appeal = useAppealSuspension(uid);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const counter = textCounter(text, moderationTextLimits.appeal);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    if (counter.count === 0) {
      setError('Write your appeal.');
      return;
    }
    if (counter.over) {
      setError(`Use at most ${moderationTextLimits.appeal} characters.`);
      return;
    }
    setError(undefined);
    try {
      await appeal.mutateAsync(text);
    } catch (failure) {
      if (isApiError(failure, 'conflict')) {
        setFormError('This suspension has already been appealed.');
      } else if (isApiError(failure) && failure.fields.text) {
        setError(failure.fields.text);
      } else {
        setFormError(failure instanceof Error ? failure.message : 'The appeal was not sent.');
      }
    }
  };

  return (
    <FormShell busy={appeal.isPending} error={formError} onSubmit={onSubmit}>
      <TextAreaField
        name="text"
        label="Your appeal"
        hint="Say why the suspension should be lifted. You can appeal once; the moderators read every appeal."
        rows={5}
        value={text}
        counter={counter}
        error={error}
        onChange={(event) => {
          setText(event.target.value);
          if (error) setError(undefined);
        }}
      />
      <div className="form__actions">
        <SubmitButton
          busy={appeal.isPending}
          label="Send appeal"
          busyLabel="Sending…"
          block={false}
        />
      </div>
    </FormShell>
  );
}
