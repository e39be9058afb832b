import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import type { UseFormSetError } from 'react-hook-form';
import { normaliseMultiline } from '@shared/text.js';
import { commentBodyRule, textRuleError } from '@shared/text-rules.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { textCounter } from '@web/lib/text-counter.js';
import { withMention } from '../comment-rules.js';

/** Asks the form to greet someone: each new `seq` puts `@username` in front of the draft and focuses it. */
export interface MentionRequest {
  username: string | null;
  seq: number;
}

interface CommentFormProps {
  label: string;
  submitLabel: string;
  busyLabel: string;
  /** Saves the text; a rejection (ApiError) keeps the text and shows the server's message. */
  onSave: (body: string) => Promise<void>;
  /** The text to start from (editing). */
  defaultBody?: string;
  /** Shown (politely announced) after a save; the field is then emptied for the next comment. */
  savedMessage?: string;
  /** Offers Cancel, and Escape in the field, to close the form. */
  onCancel?: () => void;
  /** Focus the field when the form appears (reply and edit forms open on request). */
  focusOnMount?: boolean;
  mention?: MentionRequest | null;
  rows?: number;
  className?: string;
}

function focusAtEnd(field: HTMLTextAreaElement | null): void {
  if (!field) return;
  field.focus();
  field.setSelectionRange(field.value.length, field.value.length);
}

/**
 * Writing, replying and editing (issue §3): a labelled field with a live counter up to the comment
 * limit, the server's field errors inline, and nothing typed lost when saving fails. One field needs
 * no form library: the post page's first download carries neither react-hook-form nor zod.
 */
export function CommentForm({
  label,
  submitLabel,
  busyLabel,
  onSave,
  defaultBody = '',
  savedMessage,
  onCancel,
  focusOnMount = false,
  mention,
  rows = 3,
  className = 'form comment-form',
}: CommentFormProps) {
  const [body, setBody] = useState(defaultBody);
  const [bodyError, setBodyError] = useState<string | null>(null);
  // After the first try, the field's message follows the typing (as the app's other forms do).
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [mentionSeen, setMentionSeen] = useState<number | undefined>(undefined);
  const field = useRef<HTMLTextAreaElement | null>(null);
  const counter = textCounter(body, commentBodyRule.max);

  const mentionSeq = mention?.seq;
  if (mention && mentionSeq !== mentionSeen) {
    setMentionSeen(mentionSeq);
    setBody(withMention(body, mention.username));
  }

  useEffect(() => {
    if (focusOnMount) focusAtEnd(field.current);
  }, [focusOnMount]);

  useEffect(() => {
    if (mentionSeq !== undefined) focusAtEnd(field.current);
  }, [mentionSeq]);

  const setServerError: UseFormSetError<{ body: string }> = (_name, { message }, options) => {
    setBodyError(message ?? null);
    if (options?.shouldFocus) field.current?.focus();
  };

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setTried(true);
    const problem = textRuleError(body, commentBodyRule);
    setBodyError(problem);
    if (problem) {
      field.current?.focus();
      return;
    }
    setFormError(null);
    setSaved(null);
    setBusy(true);
    try {
      await onSave(normaliseMultiline(body));
      if (savedMessage) {
        setBody('');
        setTried(false);
        setSaved(savedMessage);
      }
    } catch (error) {
      setFormError(applyServerErrors(error, setServerError, ['body']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormShell busy={busy} error={formError} onSubmit={onSubmit} className={className}>
      <TextAreaField
        name="body"
        label={label}
        rows={rows}
        counter={counter}
        error={bodyError ?? undefined}
        value={body}
        ref={field}
        onChange={(event) => {
          const text = event.target.value;
          setBody(text);
          setSaved(null);
          if (tried) setBodyError(textRuleError(text, commentBodyRule));
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && onCancel && !busy) {
            event.preventDefault();
            onCancel();
          }
        }}
      />
      <div className="form__actions comment-form__actions">
        {savedMessage ? (
          <FormStatus
            autoClear={{
              notice: saved,
              clear: () => {
                setSaved(null);
              },
            }}
          >
            {saved ? <p>{saved}</p> : null}
          </FormStatus>
        ) : null}
        {onCancel ? (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={busy}
            onClick={onCancel}
          >
            Cancel
          </button>
        ) : null}
        <SubmitButton busy={busy} label={submitLabel} busyLabel={busyLabel} block={false} />
      </div>
    </FormShell>
  );
}
