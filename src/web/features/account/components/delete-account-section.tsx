import { useCallback, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { deleteAccountBodySchema, type DeleteAccountBody } from '@shared/schemas/account.js';
import { limits } from '@shared/limits.js';
import { AccountNameField } from '@web/components/ui/account-name-field.js';
import { FormAlert } from '@web/components/ui/form-alert.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextField } from '@web/components/ui/text-field.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { useDeleteAccount } from '../api/delete-account.js';

interface DeleteAccountSectionProps {
  username: string | null;
  /** What the account signs in with, for password managers. */
  accountName: string;
  /** The request is about to go out: the account may vanish before the answer arrives. */
  onDeleting: () => void;
  onDeleteFailed: () => void;
  onDeleted: () => void;
}

/**
 * Account deletion with a second, inline confirmation step. Not a modal dialog: Radix's modal
 * dialogs inject a <style> element for scroll locking, which the CSP (style-src 'self') refuses.
 */
export function DeleteAccountSection({
  username,
  accountName,
  onDeleting,
  onDeleteFailed,
  onDeleted,
}: DeleteAccountSectionProps) {
  const deleteAccount = useDeleteAccount();
  const [formError, setFormError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Focus follows the step: onto the question when it appears, back to the button after Cancel.
  const returningFocus = useRef(false);
  const focusQuestion = useCallback((heading: HTMLHeadingElement | null) => {
    heading?.focus();
  }, []);
  const focusStart = useCallback((actions: HTMLDivElement | null) => {
    if (!actions || !returningFocus.current) return;
    returningFocus.current = false;
    actions.querySelector('button')?.focus();
  }, []);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<DeleteAccountBody>({
    resolver: zodResolver(deleteAccountBodySchema),
    mode: 'onBlur',
    defaultValues: { password: '' },
  });

  const removeAccount = async (values: DeleteAccountBody) => {
    setFormError(null);
    onDeleting();
    try {
      await deleteAccount.mutateAsync(values);
      onDeleted();
    } catch (error) {
      onDeleteFailed();
      setConfirming(false);
      setFormError(applyServerErrors(error, setError, ['password']));
    }
  };

  const handle = username ? `@${username}` : 'your username';
  return (
    <section
      className="card settings-section settings-section--danger"
      aria-labelledby="settings-delete"
    >
      <h2 id="settings-delete" className="settings-section__title">
        Delete account
      </h2>
      <p>Deleting your account can&apos;t be undone. It removes:</p>
      <ul className="settings-section__list">
        <li>your profile: names, bio and website;</li>
        <li>your avatar and cover images;</li>
        <li>every session, so you are signed out on all your devices.</li>
      </ul>
      <p>
        {handle} stays reserved for {limits.usernameChange.reserveDays} days, so nobody can take it
        to pretend to be you.
      </p>
      <form
        className="form"
        noValidate
        aria-busy={isSubmitting}
        onSubmit={(event) => {
          // Step one only asks; the deletion itself waits for the explicit "Yes" below.
          void handleSubmit(() => {
            setFormError(null);
            setConfirming(true);
          })(event);
        }}
      >
        <FormAlert message={formError} />
        <AccountNameField value={accountName} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          hint="Enter your password to confirm it is you."
          error={errors.password?.message}
          {...register('password')}
        />
        {confirming ? (
          <div className="confirm-step" role="group" aria-labelledby="settings-delete-confirm">
            <h3 id="settings-delete-confirm" ref={focusQuestion} tabIndex={-1}>
              Delete your account for good?
            </h3>
            <p>Everything listed above is removed at once. There is no way back.</p>
            <div className="confirm-step__actions">
              <button
                type="button"
                className="button button--danger"
                disabled={isSubmitting}
                aria-busy={isSubmitting}
                onClick={() => {
                  void handleSubmit(removeAccount)();
                }}
              >
                {isSubmitting ? (
                  <>
                    <span className="spinner" aria-hidden="true" />
                    Deleting…
                  </>
                ) : (
                  'Yes, delete my account'
                )}
              </button>
              <button
                type="button"
                className="button button--secondary"
                disabled={isSubmitting}
                onClick={() => {
                  returningFocus.current = true;
                  setConfirming(false);
                }}
              >
                Cancel
              </button>
            </div>
          </div>
        ) : (
          <div className="form__actions" ref={focusStart}>
            <SubmitButton
              busy={false}
              tone="danger"
              label="Delete account"
              busyLabel="Deleting…"
              block={false}
            />
          </div>
        )}
      </form>
    </section>
  );
}
