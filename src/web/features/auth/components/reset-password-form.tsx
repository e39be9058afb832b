import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { z } from 'zod';
import { resetPasswordBodySchema } from '@shared/schemas/auth.js';
import { AlertIcon, CheckIcon } from '@web/components/ui/icons.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { TextField } from '@web/components/ui/text-field.js';
import { isApiError } from '@web/lib/api-client.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { passwordHint } from '@web/lib/field-hints.js';
import { useResetPassword } from '../api/reset-password.js';

// The token comes from the link, not the form; the confirmation exists only in the browser.
const newPasswordFormSchema = resetPasswordBodySchema
  .pick({ newPassword: true })
  .extend({ confirmNewPassword: z.string() })
  .refine((values) => values.newPassword === values.confirmNewPassword, {
    path: ['confirmNewPassword'],
    message: 'The two passwords do not match.',
  });
type NewPasswordForm = z.input<typeof newPasswordFormSchema>;

const tokenSchema = resetPasswordBodySchema.shape.token;

interface ResetPasswordFormProps {
  token: string;
  /** After the new password is saved, so the page can say so in its heading. */
  onDone?: () => void;
}

function InvalidLink() {
  return (
    <div role="alert">
      <StatusPanel title="This reset link no longer works" tone="error" icon={<AlertIcon />}>
        <p>
          Reset links work once and expire after one hour. This one has expired, was already used,
          or was not copied in full.
        </p>
        <p>
          <Link to="/reset-password">Request a new reset link</Link>
        </p>
      </StatusPanel>
    </div>
  );
}

/** Step two of the reset: choose a new password with the one-time token from the email. */
export function ResetPasswordForm({ token, onDone }: ResetPasswordFormProps) {
  const resetPassword = useResetPassword();
  const [formError, setFormError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<'form' | 'done' | 'invalid-token'>(() =>
    tokenSchema.safeParse(token).success ? 'form' : 'invalid-token',
  );
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordForm>({
    resolver: zodResolver(newPasswordFormSchema),
    mode: 'onBlur',
    defaultValues: { newPassword: '', confirmNewPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ newPassword }) => {
    setFormError(null);
    try {
      await resetPassword.mutateAsync({ token, newPassword });
      setOutcome('done');
      onDone?.();
    } catch (error) {
      if (isApiError(error, 'invalid_token')) {
        setOutcome('invalid-token');
        return;
      }
      setFormError(applyServerErrors(error, setError, ['newPassword']));
    }
  });

  if (outcome === 'invalid-token') return <InvalidLink />;

  if (outcome === 'done') {
    return (
      <div role="status">
        <StatusPanel
          title="Sign in with your new password"
          icon={<CheckIcon />}
          actions={
            <Link className="button button--primary" to="/login">
              Sign in
            </Link>
          }
        >
          <p>Your old password no longer works.</p>
        </StatusPanel>
      </div>
    );
  }

  return (
    <FormShell busy={isSubmitting} error={formError} onSubmit={onSubmit}>
      <TextField
        label="New password"
        type="password"
        hint={passwordHint}
        autoComplete="new-password"
        error={errors.newPassword?.message}
        {...register('newPassword')}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmNewPassword?.message}
        {...register('confirmNewPassword')}
      />
      <SubmitButton busy={isSubmitting} label="Set new password" busyLabel="Saving…" />
    </FormShell>
  );
}
