import { useLayoutEffect, useRef, useState, type SubmitEvent } from 'react';
import type { UseFormSetError } from 'react-hook-form';
import { normaliseMultiline } from '@shared/text.js';
import { commentBodyRule, textRuleError } from '@shared/text-rules.js';
import { useMentionTypeahead } from '@web/components/mention-typeahead/use-mention-typeahead.js';
import { DraftNote } from '@web/components/ui/draft-note.js';
import { FormShell } from '@web/components/ui/form-shell.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { LeavePrompt } from '@web/components/ui/leave-prompt.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { browserDraftStorage, draftText, loadDraft } from '@web/lib/drafts.js';
import { applyServerErrors } from '@web/lib/form-errors.js';
import {
  submitKeyShortcuts,
  submitOnShortcut,
  submitShortcutLabel,
} from '@web/lib/submit-shortcut.js';
import { textCounter } from '@web/lib/text-counter.js';
import { useDraft } from '@web/lib/use-draft.js';
import { useLeavePrompt } from '@web/lib/use-leave-prompt.js';
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
  /**
   * Keeps what is typed as a draft on this device for `account` (issue: notifications, search and the
   * everyday things §4): `comment:{postId}` for a new comment, `reply:{commentId}` for a reply.
   */
  draft?: { account: string; target: string };
}

interface CommentDraft {
  body: string;
}

const readCommentDraft = (value: unknown): CommentDraft | null => {
  const body = draftText(value, 'body');
  return body === null || body.trim() === '' ? null : { body };
};

/** Whether `account` has a draft kept on this device for the comment form `target`. */
export function hasCommentDraft(account: string, target: string): boolean {
  return loadDraft(browserDraftStorage(), account, target, readCommentDraft) !== null;
}

function focusAtEnd(field: HTMLTextAreaElement | null): void {
  if (!field) return;
  field.focus();
  field.setSelectionRange(field.value.length, field.value.length);
}

/**
 * Writing, replying and editing (issue §3): a labelled field with a live counter up to the comment
 * limit, the server's field errors inline, and nothing typed lost when saving fails. One field needs
 * no form library: the post page's first download carries neither react-hook-form nor zod. `@` offers
 * people to mention, Ctrl/⌘+Enter sends, a new comment or reply is kept as a draft, and leaving the
 * page with unsent text asks first.
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
  draft: draftTarget,
}: CommentFormProps) {
  const draft = useDraft({
    account: draftTarget?.account ?? null,
    target: draftTarget?.target ?? '',
    read: readCommentDraft,
  });
  const [restored, setRestored] = useState(draft.restored);
  const [body, setBody] = useState(draft.restored?.value.body ?? defaultBody);
  // What the field held before anything was typed: the text being edited, or a reply's greeting.
  const [baseline, setBaseline] = useState(defaultBody);
  const dirty = normaliseMultiline(body) !== normaliseMultiline(baseline);
  const leave = useLeavePrompt({ dirty, kept: draftTarget !== undefined });
  const typeahead = useMentionTypeahead({
    setText: (text) => {
      setBody(text);
      setSaved(null);
    },
  });
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
  // A request that comes while a reply is being sent waits for it: the greeting goes in front of an
  // empty field once the sent text has left it, never in front of the text being sent.
  if (mention && mentionSeq !== mentionSeen && !busy) {
    setMentionSeen(mentionSeq);
    const greeted = withMention(body, mention.username);
    setBody(greeted);
    // A greeting put in front of an empty field is not something typed: it is neither kept nor asked about.
    if (!dirty) setBaseline(greeted);
  }

  const { save: saveDraft } = draft;
  // In the render's own task, before the next event: a form emptied and closed at once (Escape right
  // after clearing it) must not leave its unmount to keep the text it held a moment earlier.
  useLayoutEffect(() => {
    saveDraft(dirty ? { body } : null);
  }, [saveDraft, body, dirty]);

  // Before the field is painted: typing that starts as soon as it shows is never put after a caret moved
  // late, or lost to a selection collapsed under it.
  useLayoutEffect(() => {
    if (focusOnMount) focusAtEnd(field.current);
  }, [focusOnMount]);

  useLayoutEffect(() => {
    // Sequence 0 is a form reopened for its draft: it waits to be chosen rather than taking focus.
    if (mentionSeen) focusAtEnd(field.current);
  }, [mentionSeen]);

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
      // Kept until the server has it: text whose page closed while it was on its way is offered back.
      draft.clear();
      leave.settle();
      setRestored(null);
      // Sent: the field is ready for the next one (a form that closes on saving is simply gone).
      setBody('');
      setBaseline('');
      setTried(false);
      if (savedMessage) setSaved(savedMessage);
    } catch (error) {
      setFormError(applyServerErrors(error, setServerError, ['body']));
    } finally {
      setBusy(false);
    }
  };

  const cancel = onCancel
    ? () => {
        // Cancel means the text is not wanted: no draft stays, and closing the form asks nothing.
        draft.clear();
        leave.settle();
        onCancel();
      }
    : undefined;

  const discard = () => {
    draft.clear();
    setRestored(null);
    setBody(baseline);
    setBodyError(null);
    field.current?.focus();
  };

  const shortcut = submitShortcutLabel();

  return (
    <FormShell busy={busy} error={formError} onSubmit={onSubmit} className={className}>
      {leave.hosting ? <LeavePrompt /> : null}
      {restored ? <DraftNote savedAt={restored.savedAt} onDiscard={discard} /> : null}
      <TextAreaField
        name="body"
        label={label}
        rows={rows}
        counter={counter}
        error={bodyError ?? undefined}
        value={body}
        ref={field}
        {...typeahead.fieldProps}
        after={typeahead.popup}
        onChange={(event) => {
          const text = event.target.value;
          setBody(text);
          setSaved(null);
          if (tried) setBodyError(textRuleError(text, commentBodyRule));
          typeahead.update(event.currentTarget);
        }}
        onKeyDown={(event) => {
          if (typeahead.onKeyDown(event) || submitOnShortcut(event, busy)) return;
          if (event.key === 'Escape' && cancel && !busy) {
            event.preventDefault();
            cancel();
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
        {cancel ? (
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={busy}
            onClick={cancel}
          >
            Cancel
          </button>
        ) : null}
        <SubmitButton
          busy={busy}
          label={submitLabel}
          busyLabel={busyLabel}
          block={false}
          title={`${submitLabel} (${shortcut})`}
          keyShortcuts={submitKeyShortcuts}
        />
      </div>
    </FormShell>
  );
}
