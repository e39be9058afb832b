import { useId, useState, type SubmitEvent } from 'react';
import {
  instanceLimits,
  type InstanceSettings,
  type RegistrationMode,
} from '@shared/schemas/instance.js';
import { CheckboxField } from '@web/components/ui/checkbox-field.js';
import { FormAlert } from '@web/components/ui/form-alert.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { ApiError } from '@web/lib/api-client.js';
import { textCounter } from '@web/lib/text-counter.js';
import { useUpdateInstanceSettings } from '../api/settings.js';

const modes: { value: RegistrationMode; label: string; explanation: string }[] = [
  {
    value: 'open',
    label: 'Open',
    explanation: 'Anyone can create an account and post straight away.',
  },
  {
    value: 'approval',
    label: 'Approval',
    explanation:
      'Anyone can apply. New accounts can read but not post until a moderator approves them; the sign-up question below is asked.',
  },
  {
    value: 'closed',
    label: 'Closed',
    explanation: 'Nobody can create an account. People who have one still sign in.',
  },
];

interface InstanceSettingsFormProps {
  initial: InstanceSettings;
  /** Moderators see the settings but cannot change them. */
  readOnly: boolean;
}

/** Registration mode, sign-up question and the public moderation log (ADR 0023). */
export function InstanceSettingsForm({ initial, readOnly }: InstanceSettingsFormProps) {
  const id = useId();
  const [mode, setMode] = useState<RegistrationMode>(initial.registrationMode);
  const [question, setQuestion] = useState(initial.signupQuestion ?? '');
  const [publicLog, setPublicLog] = useState(initial.publicModerationLog);
  const [saved, setSaved] = useState<number | null>(null);
  const update = useUpdateInstanceSettings();
  const counter = textCounter(question, instanceLimits.signupQuestion);
  const fieldErrors = update.error instanceof ApiError ? update.error.fields : {};
  const alert =
    update.error && !fieldErrors.signupQuestion && !fieldErrors.registrationMode
      ? update.error.message
      : null;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (readOnly) return;
    setSaved(null);
    update.mutate(
      {
        registrationMode: mode,
        signupQuestion: question.trim() === '' ? null : question,
        publicModerationLog: publicLog,
      },
      {
        onSuccess: (settings) => {
          setMode(settings.registrationMode);
          setQuestion(settings.signupQuestion ?? '');
          setPublicLog(settings.publicModerationLog);
          setSaved(Date.now());
        },
      },
    );
  };

  return (
    <form className="form instance-settings-form" onSubmit={submit} noValidate>
      <fieldset className="form__fieldset" disabled={readOnly || update.isPending}>
        <fieldset className="radio-group" aria-describedby={`${id}-modes-hint`}>
          <legend className="field__label">Registration</legend>
          <p className="field__hint" id={`${id}-modes-hint`}>
            Who can create an account. This replaces the server&apos;s REGISTRATION_MODE setting.
          </p>
          {modes.map((option) => (
            <div key={option.value} className="radio-group__option">
              <input
                type="radio"
                id={`${id}-mode-${option.value}`}
                name="registrationMode"
                value={option.value}
                checked={mode === option.value}
                onChange={() => {
                  setMode(option.value);
                }}
                aria-describedby={`${id}-mode-${option.value}-explanation`}
                className="radio-group__input"
              />
              <div className="radio-group__text">
                <label htmlFor={`${id}-mode-${option.value}`} className="radio-group__label">
                  {option.label}
                </label>
                <p className="field__hint" id={`${id}-mode-${option.value}-explanation`}>
                  {option.explanation}
                </p>
              </div>
            </div>
          ))}
          {fieldErrors.registrationMode ? (
            <p className="field__error">{fieldErrors.registrationMode}</p>
          ) : null}
        </fieldset>
        <TextAreaField
          name="signupQuestion"
          label="Sign-up question"
          hint="Asked of everyone who applies in approval mode, to help moderators decide. Leave it empty to ask nothing."
          rows={2}
          value={question}
          counter={counter}
          error={fieldErrors.signupQuestion}
          onChange={(event) => {
            setQuestion(event.target.value);
          }}
        />
        <CheckboxField
          name="publicModerationLog"
          label="Publish the moderation log"
          hint="Everyone can then see at /about/moderation what moderators did and why: never who reported, who acted, private notes or removed words."
          checked={publicLog}
          onChange={(event) => {
            setPublicLog(event.target.checked);
          }}
        />
      </fieldset>
      {readOnly ? (
        <p className="notice" role="note">
          Only administrators can change these settings.
        </p>
      ) : (
        <>
          <FormAlert message={alert} />
          <div className="form__actions">
            <FormStatus autoClear={{ notice: saved, clear: () => setSaved(null) }}>
              {saved ? 'Settings saved.' : null}
            </FormStatus>
            <SubmitButton
              busy={update.isPending}
              label="Save settings"
              busyLabel="Saving…"
              disabled={counter.over}
            />
          </div>
        </>
      )}
    </form>
  );
}
