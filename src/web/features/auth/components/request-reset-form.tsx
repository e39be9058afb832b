import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  requestPasswordResetBodySchema,
  type RequestPasswordResetBody,
} from '@shared/schemas/auth.js';
import { CheckIcon } from '@web/components/ui/icons.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { TextField } from '@web/components/ui/text-field.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { useRequestPasswordReset } from '../api/request-password-reset.js';

/** Step one of the reset: ask for a link. The answer never reveals whether the address exists. */
export function RequestResetForm() {
  const requestReset = useRequestPasswordReset();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RequestPasswordResetBody>({
    resolver: zodResolver(requestPasswordResetBodySchema),
    mode: 'onBlur',
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await requestReset.mutateAsync(values);
      setSent(true);
    } catch (error) {
      setFormError(applyServerErrors(error, setError, ['email']));
    }
  });

  if (sent) {
    return (
      <div role="status">
        <StatusPanel title="Check your inbox" icon={<CheckIcon />}>
          <p>
            If an account uses that address, a reset link is on its way. It works once, for one
            hour.
          </p>
        </StatusPanel>
      </div>
    );
  }

  return (
    <FormShell busy={isSubmitting} error={formError} onSubmit={onSubmit}>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        spellCheck={false}
        error={errors.email?.message}
        {...register('email')}
      />
      <SubmitButton busy={isSubmitting} label="Send reset link" busyLabel="Sending…" />
    </FormShell>
  );
}
