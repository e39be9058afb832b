import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { signUpBodySchema, type SignUpBody } from '@shared/schemas/auth.js';
import type { Me } from '@shared/schemas/user.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { TextField } from '@web/components/ui/text-field.js';
import { isApiError } from '@web/lib/api-client.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { passwordHint, usernameHint } from '@web/lib/field-hints.js';
import { useSignUp } from '../api/sign-up.js';

interface SignUpFormProps {
  onSignedUp: (user: Me) => void;
  /** The instance closed registration since the page loaded (403 registration_closed). */
  onRegistrationClosed?: () => void;
}

const fieldOrder = ['email', 'username', 'password', 'firstName', 'lastName'] as const;

/** Account creation with the same zod schema the server enforces (DESIGN.md principle 3). */
export function SignUpForm({ onSignedUp, onRegistrationClosed }: SignUpFormProps) {
  const signUp = useSignUp();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignUpBody>({
    resolver: zodResolver(signUpBodySchema),
    mode: 'onBlur',
    defaultValues: { email: '', username: '', password: '', firstName: '', lastName: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const { user } = await signUp.mutateAsync(values);
      onSignedUp(user);
    } catch (error) {
      if (isApiError(error, 'registration_closed')) onRegistrationClosed?.();
      setFormError(applyServerErrors(error, setError, fieldOrder));
    }
  });

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
      <TextField
        label="Username"
        hint={usernameHint}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        label="Password"
        type="password"
        hint={passwordHint}
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <div className="form__row">
        <TextField
          label="First name"
          autoComplete="given-name"
          error={errors.firstName?.message}
          {...register('firstName')}
        />
        <TextField
          label="Last name"
          autoComplete="family-name"
          error={errors.lastName?.message}
          {...register('lastName')}
        />
      </div>
      <SubmitButton busy={isSubmitting} label="Create account" busyLabel="Creating account…" />
    </FormShell>
  );
}
