import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { signUpBodySchema, type SignUpBody } from '@shared/schemas/auth.js';
import { limits, rateLimits } from '@shared/limits.js';
import type { Me } from '@shared/schemas/user.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { TextField } from '@web/components/ui/text-field.js';
import { isApiError } from '@web/lib/api-client.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { passwordHint, usernameHint } from '@web/lib/field-hints.js';
import { useSignUp } from '../api/sign-up.js';

interface SignUpFormProps {
  onSignedUp: (user: Me) => void;
  /** The instance closed registration since the page loaded (403 registration_closed). */
  onRegistrationClosed?: () => void;
  /** Approval mode: the instance's question, whose answer is required; null or absent: none asked. */
  signupQuestion?: string | null;
}

/**
 * The 429 of a sign-up: past the attempts' window it is the daily allowance of new accounts per network
 * (issue: moderation and administration §7), which deserves its own explanation.
 */
function signUpLimitMessage(error: unknown): string | null {
  if (!isApiError(error, 'rate_limited')) return null;
  const seconds = error.retryAfterSeconds;
  if (seconds === null || seconds * 1000 <= rateLimits.signUp.windowMs) return null;
  const hours = Math.max(1, Math.ceil(seconds / 3600));
  return `Too many accounts were created from your network today. Try again in ${hours} ${hours === 1 ? 'hour' : 'hours'}, or ask someone who already has an account here to contact the administrators.`;
}

const fieldOrder = [
  'email',
  'username',
  'password',
  'firstName',
  'lastName',
  'signupAnswer',
] as const;

/** Account creation with the same zod schema the server enforces (DESIGN.md principle 3). */
export function SignUpForm({ onSignedUp, onRegistrationClosed, signupQuestion }: SignUpFormProps) {
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
    defaultValues: {
      email: '',
      username: '',
      password: '',
      firstName: '',
      lastName: '',
      signupAnswer: '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    if (signupQuestion && !values.signupAnswer?.trim()) {
      setError(
        'signupAnswer',
        { type: 'required', message: 'Answer the question.' },
        { shouldFocus: true },
      );
      return;
    }
    try {
      const { user } = await signUp.mutateAsync(
        signupQuestion ? values : { ...values, signupAnswer: undefined },
      );
      onSignedUp(user);
    } catch (error) {
      if (isApiError(error, 'registration_closed')) onRegistrationClosed?.();
      setFormError(signUpLimitMessage(error) ?? applyServerErrors(error, setError, fieldOrder));
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
      {signupQuestion ? (
        <TextAreaField
          label={signupQuestion}
          hint="The moderators read your answer before they approve your account."
          rows={3}
          maxLength={limits.signupAnswer.max}
          required
          error={errors.signupAnswer?.message}
          {...register('signupAnswer')}
        />
      ) : null}
      <SubmitButton busy={isSubmitting} label="Create account" busyLabel="Creating account…" />
    </FormShell>
  );
}
