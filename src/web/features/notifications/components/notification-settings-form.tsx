import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import {
  configurableNotificationKinds,
  type ConfigurableNotificationKind,
  type EmailMode,
  type NotificationSettings,
} from '@shared/schemas/notification.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { ApiError } from '@web/lib/api-client.js';
import { useUpdateNotificationSettings } from '../api/update-notification-settings.js';
import { emailChoices, kindLabels, settingsKinds } from './kind-labels.js';

export type KindErrors = Partial<Record<ConfigurableNotificationKind, string>>;

const unexpectedMessage = 'Something went wrong. Please try again.';

/**
 * A failed save, split into what belongs next to a kind (the server names the kind) and what the
 * form-level alert says: the server's message when no kind matched, or messages for names no kind has.
 */
export function settingsErrors(error: unknown): { kinds: KindErrors; form: string | null } {
  if (!(error instanceof ApiError)) return { kinds: {}, form: unexpectedMessage };
  const kinds: KindErrors = {};
  const rest: string[] = [];
  for (const [name, message] of Object.entries(error.fields)) {
    const kind = configurableNotificationKinds.find((known) => known === name);
    if (kind) kinds[kind] = message;
    else rest.push(message);
  }
  if (Object.keys(kinds).length === 0) return { kinds, form: error.message };
  return { kinds, form: rest.length > 0 ? rest.join(' ') : null };
}

interface KindFieldsProps {
  kind: ConfigurableNotificationKind;
  value: NotificationSettings[ConfigurableNotificationKind];
  error: string | undefined;
  onChange: (next: NotificationSettings[ConfigurableNotificationKind]) => void;
}

function KindFields({ kind, value, error, onChange }: KindFieldsProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset
      className={`notification-kind${error ? ' notification-kind--invalid' : ''}`}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="notification-kind__title">{kindLabels[kind].title}</legend>
      <div className="checkbox-field">
        <input
          id={`${id}-app`}
          name={`${kind}.inApp`}
          type="checkbox"
          className="checkbox-field__input"
          checked={value.inApp}
          onChange={(event) => {
            onChange({ ...value, inApp: event.target.checked });
          }}
        />
        <div className="checkbox-field__text">
          <label className="checkbox-field__label" htmlFor={`${id}-app`}>
            In the app
          </label>
        </div>
      </div>
      <fieldset className="notification-kind__email">
        <legend className="notification-kind__email-title">Email</legend>
        <div className="notification-kind__choices">
          {emailChoices(kind).map((choice) => (
            <label key={choice.mode} className="notification-kind__choice">
              <input
                type="radio"
                name={`${kind}.email`}
                value={choice.mode}
                checked={value.email === choice.mode}
                onChange={() => {
                  onChange({ ...value, email: choice.mode satisfies EmailMode });
                }}
              />
              <span>{choice.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * issue: notifications §2 settings: per kind, in the app on or off, and email never, as it happens
 * (mentions, replies and comments) or in a daily digest. All kinds are saved together.
 */
export function NotificationSettingsForm({
  initial,
  staff = false,
}: {
  initial: NotificationSettings;
  /** A moderator or administrator: the console's kinds are listed too. */
  staff?: boolean;
}) {
  const save = useUpdateNotificationSettings();
  const [settings, setSettings] = useState(initial);
  const [kindErrors, setKindErrors] = useState<KindErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const fields = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Keyboard users land on the first kind that needs attention (a form-level alert takes focus itself).
    if (formError) return;
    fields.current?.querySelector<HTMLInputElement>('.notification-kind--invalid input')?.focus();
  }, [kindErrors, formError]);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    setKindErrors({});
    setDone(null);
    try {
      const saved = await save.mutateAsync(settings);
      setSettings(saved);
      setDone('Your notification settings were saved.');
    } catch (error) {
      const { kinds, form } = settingsErrors(error);
      setKindErrors(kinds);
      setFormError(form);
    }
  };

  return (
    <FormShell busy={save.isPending} error={formError} onSubmit={onSubmit}>
      <div className="notification-kinds" ref={fields}>
        {settingsKinds(staff).map((kind) => (
          <KindFields
            key={kind}
            kind={kind}
            value={settings[kind]}
            error={kindErrors[kind]}
            onChange={(next) => {
              setSettings((current) => ({ ...current, [kind]: next }));
            }}
          />
        ))}
      </div>
      <div className="form__actions">
        <FormStatus
          autoClear={{
            notice: done,
            clear: () => {
              setDone(null);
            },
          }}
        >
          {done ? <p>{done}</p> : null}
        </FormStatus>
        <SubmitButton
          busy={save.isPending}
          label="Save settings"
          busyLabel="Saving…"
          block={false}
        />
      </div>
    </FormShell>
  );
}
