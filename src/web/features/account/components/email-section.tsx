import { useState } from 'react';
import { FormShell } from '@web/components/ui/form-shell.js';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { changeEmailBodySchema, type ChangeEmailBody } from '@shared/schemas/account.js';
import { AccountNameField } from '@web/components/ui/account-name-field.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextField } from '@web/components/ui/text-field.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { useChangeEmail } from '../api/change-email.js';

interface EmailSectionProps {
  currentEmail: string;
  /** What the account signs in with, for password managers. */
  accountName: string;
  /** ADR 0005: an inactive account cannot change its email until it is activated. */
  active: boolean;
}

/** Email change: the new address only takes effect once the link mailed to it is followed. */
export function EmailSection({ currentEmail, accountName, active }: EmailSectionProps) {
  const changeEmail = useChangeEmail();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangeEmailBody>({
    resolver: zodResolver(changeEmailBodySchema),
    mode: 'onBlur',
    defaultValues: { newEmail: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setSent(null);
    try {
      const { message } = await changeEmail.mutateAsync(values);
      reset();
      setSent(message);
    } catch (error) {
      setFormError(applyServerErrors(error, setError, ['newEmail', 'password']));
    }
  });

  return (
    <section className="card settings-section" aria-labelledby="settings-email">
      <h2 id="settings-email" className="settings-section__title">
        Email
      </h2>
      <p>
        Your address is <strong className="settings-section__value">{currentEmail}</strong>. We use
        it for sign-in and password resets, and never show it to anyone.
      </p>
      {active ? null : (
        <p className="notice" role="note">
          You can change your email address once an administrator has activated your account.
        </p>
      )}
      <FormShell busy={isSubmitting} error={formError} onSubmit={onSubmit}>
        <AccountNameField value={accountName} />
        <fieldset className="form__fieldset" disabled={!active}>
          <legend className="visually-hidden">Change your email address</legend>
          <TextField
            label="New email"
            type="email"
            autoComplete="email"
            spellCheck={false}
            hint="We send a confirmation link there; your address changes when you follow it."
            error={errors.newEmail?.message}
            {...register('newEmail')}
          />
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
        </fieldset>
        <div className="form__actions">
          <FormStatus
            autoClear={{
              notice: sent,
              clear: () => {
                setSent(null);
              },
            }}
          >
            {sent ? <p>{sent}</p> : null}
          </FormStatus>
          <SubmitButton
            busy={isSubmitting}
            disabled={!active}
            label="Send confirmation link"
            busyLabel="Sending…"
            block={false}
          />
        </div>
      </FormShell>
    </section>
  );
}
