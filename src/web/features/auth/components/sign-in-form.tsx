import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { signInBodySchema, type SignInBody } from '@shared/schemas/auth.js';
import type { Me } from '@shared/schemas/user.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { TextField } from '@web/components/ui/text-field.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { useSignIn } from '../api/sign-in.js';

interface SignInFormProps {
  onSignedIn: (user: Me) => void;
}

/** Email-or-username and password; the server answers one message for any wrong pair. */
export function SignInForm({ onSignedIn }: SignInFormProps) {
  const signIn = useSignIn();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignInBody>({
    resolver: zodResolver(signInBodySchema),
    mode: 'onBlur',
    defaultValues: { identifier: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const { user } = await signIn.mutateAsync(values);
      onSignedIn(user);
    } catch (error) {
      setFormError(applyServerErrors(error, setError, ['identifier', 'password']));
    }
  });

  return (
    <FormShell busy={isSubmitting} error={formError} onSubmit={onSubmit}>
      <TextField
        label="Email or username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.identifier?.message}
        {...register('identifier')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <p className="form__aside">
        <Link to="/reset-password">Forgot your password?</Link>
      </p>
      <SubmitButton busy={isSubmitting} label="Sign in" busyLabel="Signing in…" />
    </FormShell>
  );
}
