import { useState } from 'react';
import { FormShell } from '@web/components/ui/form-shell.js';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { changePasswordBodySchema } from '@shared/schemas/account.js';
import { AccountNameField } from '@web/components/ui/account-name-field.js';
import { CheckboxField } from '@web/components/ui/checkbox-field.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextField } from '@web/components/ui/text-field.js';
import { passwordHint } from '@web/lib/field-hints.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { useChangePassword } from '../api/change-password.js';

type PasswordForm = z.input<typeof changePasswordBodySchema>;
type PasswordValues = z.output<typeof changePasswordBodySchema>;

interface PasswordSectionProps {
  /** What the account signs in with, for password managers. */
  accountName: string;
  /** After a change: the session may have been renewed. */
  onChanged: () => void;
}

/** Password change, optionally signing out every other device. */
export function PasswordSection({ accountName, onChanged }: PasswordSectionProps) {
  const changePassword = useChangePassword();
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<PasswordForm, unknown, PasswordValues>({
    resolver: zodResolver(changePasswordBodySchema),
    mode: 'onBlur',
    defaultValues: { currentPassword: '', newPassword: '', signOutOtherSessions: false },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setDone(null);
    try {
      await changePassword.mutateAsync(values);
      reset();
      setDone(
        values.signOutOtherSessions
          ? 'Your password was changed, and your other devices were signed out.'
          : 'Your password was changed.',
      );
      onChanged();
    } catch (error) {
      setFormError(applyServerErrors(error, setError, ['currentPassword', 'newPassword']));
    }
  });

  return (
    <section className="card settings-section" aria-labelledby="settings-password">
      <h2 id="settings-password" className="settings-section__title">
        Password
      </h2>
      <FormShell busy={isSubmitting} error={formError} onSubmit={onSubmit}>
        <AccountNameField value={accountName} />
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={passwordHint}
          error={errors.newPassword?.message}
          {...register('newPassword')}
        />
        <CheckboxField
          label="Sign out everywhere else"
          hint="Every other browser and device signed in to your account is signed out. This one stays signed in."
          {...register('signOutOtherSessions')}
        />
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
            busy={isSubmitting}
            label="Change password"
            busyLabel="Changing password…"
            block={false}
          />
        </div>
      </FormShell>
    </section>
  );
}
