import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { limits } from '@shared/limits.js';
import { updateCommentSchema } from '@shared/schemas/post.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import { textCounter } from '@web/lib/text-counter.js';
import { withMention } from '../comment-rules.js';

type CommentFormInput = z.input<typeof updateCommentSchema>;
type CommentFormValues = z.output<typeof updateCommentSchema>;

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
 * limit, the server's field errors inline, and nothing typed lost when saving fails.
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
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<CommentFormInput, unknown, CommentFormValues>({
    resolver: zodResolver(updateCommentSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { body: defaultBody },
  });
  const { ref: registerRef, ...bodyField } = register('body');
  const counter = textCounter(useWatch({ control, name: 'body' }), limits.comment.max);

  useEffect(() => {
    if (focusOnMount) focusAtEnd(field.current);
  }, [focusOnMount]);

  const mentionSeq = mention?.seq;
  const mentionName = mention?.username ?? null;
  useEffect(() => {
    if (mentionSeq === undefined) return;
    const draft = getValues('body');
    const next = withMention(draft, mentionName);
    if (next !== draft) setValue('body', next, { shouldDirty: true });
    focusAtEnd(field.current);
  }, [mentionSeq, mentionName, getValues, setValue]);

  const onSubmit = handleSubmit(async ({ body }) => {
    setFormError(null);
    setSaved(null);
    try {
      await onSave(body);
      if (savedMessage) {
        reset({ body: '' });
        setSaved(savedMessage);
      }
    } catch (error) {
      setFormError(applyServerErrors(error, setError, ['body']));
    }
  });

  return (
    <FormShell busy={isSubmitting} error={formError} onSubmit={onSubmit} className={className}>
      <TextAreaField
        label={label}
        rows={rows}
        counter={counter}
        error={errors.body?.message}
        {...bodyField}
        ref={(element) => {
          field.current = element;
          registerRef(element);
        }}
        onChange={(event) => {
          setSaved(null);
          void bodyField.onChange(event);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && onCancel && !isSubmitting) {
            event.preventDefault();
            onCancel();
          }
        }}
      />
      <div className="form__actions comment-form__actions">
        {savedMessage ? <FormStatus>{saved ? <p>{saved}</p> : null}</FormStatus> : null}
        {onCancel ? (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={isSubmitting}
            onClick={onCancel}
          >
            Cancel
          </button>
        ) : null}
        <SubmitButton busy={isSubmitting} label={submitLabel} busyLabel={busyLabel} block={false} />
      </div>
    </FormShell>
  );
}
