import { useLayoutEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { PostView } from '@shared/schemas/post.js';
import { altTextRule, postBodyRule, postError, textRuleError } from '@shared/text-rules.js';
import { useMentionTypeahead } from '@web/components/mention-typeahead/use-mention-typeahead.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { LeavePrompt } from '@web/components/ui/leave-prompt.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import {
  submitKeyShortcuts,
  submitOnShortcut,
  submitShortcutLabel,
} from '@web/lib/submit-shortcut.js';
import { textCounter } from '@web/lib/text-counter.js';
import { useLeavePrompt } from '@web/lib/use-leave-prompt.js';
import { useUpdatePost } from '../api/update-post.js';

interface EditValues {
  body: string;
  alts: string[];
}

interface PostEditFormProps {
  post: PostView;
  onDone: () => void;
}

/**
 * Issue: posts §1. The author edits the text in place (same limit and counter as writing it), and may
 * fix the images' descriptions. Cancel leaves the post as it was; the text typed survives an error.
 * `@` offers people to mention, Ctrl/⌘+Enter saves, and leaving the page with changes asks first.
 */
export function PostEditForm({ post, onDone }: PostEditFormProps) {
  const update = useUpdatePost();
  const [formError, setFormError] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = useForm<EditValues>({
    defaultValues: { body: post.body, alts: post.images.map((image) => image.alt ?? '') },
  });
  const [body, alts] = useWatch({ control, name: ['body', 'alts'] });
  const changed =
    body !== post.body || alts.some((alt, index) => alt !== (post.images[index]?.alt ?? ''));
  const leave = useLeavePrompt({ dirty: changed, kept: false });
  const typeahead = useMentionTypeahead({
    setText: (text) => {
      setValue('body', text, { shouldDirty: true });
    },
  });
  const cancel = () => {
    leave.settle();
    onDone();
  };

  // Before the editor is painted, so what is typed as soon as it shows replaces or follows the text as
  // the caret says, not a caret moved after the first keys.
  useLayoutEffect(() => {
    const element = textarea.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);

  const save = async (values: EditValues) => {
    setFormError(null);
    const changedAlts = values.alts.some(
      (alt, index) => alt.trim() !== (post.images[index]?.alt ?? ''),
    );
    if (values.body === post.body && !changedAlts) {
      cancel();
      return;
    }
    try {
      await update.mutateAsync({
        postId: post.id,
        body: values.body,
        alts: changedAlts ? values.alts.map((alt) => alt.trim() || null) : undefined,
      });
      leave.settle();
      onDone();
    } catch (error) {
      setFormError(applyServerErrors(error, setError, ['body']));
    }
  };

  const { ref: bodyRef, ...bodyField } = register('body', {
    validate: (value) => postError(value, post.images.length) ?? true,
    onChange: (event: { target: HTMLTextAreaElement }) => {
      typeahead.update(event.target);
    },
  });
  const shortcut = submitShortcutLabel();

  return (
    <FormShell
      busy={isSubmitting}
      error={formError}
      onSubmit={(event) => handleSubmit(save)(event)}
      className="form post-edit"
    >
      {leave.hosting ? <LeavePrompt /> : null}
      <TextAreaField
        label="Edit post"
        rows={4}
        counter={textCounter(body, postBodyRule.max)}
        error={errors.body?.message}
        ref={(element) => {
          bodyRef(element);
          textarea.current = element;
        }}
        {...bodyField}
        {...typeahead.fieldProps}
        after={typeahead.popup}
        onBlur={(event) => {
          typeahead.fieldProps.onBlur();
          void bodyField.onBlur(event);
        }}
        onKeyDown={(event) => {
          if (!typeahead.onKeyDown(event)) submitOnShortcut(event, isSubmitting);
        }}
      />
      {post.images.map((image, index) => (
        <TextAreaField
          key={image.id}
          label={`Alt text for image ${String(index + 1)}`}
          hint="Describe the image for people who can’t see it."
          rows={2}
          counter={textCounter(alts[index] ?? '', altTextRule.max)}
          error={errors.alts?.[index]?.message}
          {...register(`alts.${index}`, {
            validate: (value) => textRuleError(value, altTextRule) ?? true,
          })}
        />
      ))}
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={cancel}>
          Cancel
        </button>
        <SubmitButton
          busy={isSubmitting}
          label="Save"
          busyLabel="Saving…"
          block={false}
          title={`Save (${shortcut})`}
          keyShortcuts={submitKeyShortcuts}
        />
      </div>
    </FormShell>
  );
}
