import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import {
  reportCommentMax,
  type ReportReason,
  type ReportTargetKind,
} from '@shared/schemas/report.js';
import { FormAlert } from '@web/components/ui/form-alert.js';
import { ModalDialog } from '@web/components/ui/modal-dialog.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { isApiError } from '@web/lib/api-client.js';
import { textCounter } from '@web/lib/text-counter.js';
import { useCreateReport } from '../api/create-report.js';
import { useRules } from '../api/get-rules.js';

/** What is reported, and whose it is (named in the dialog, never told who reported them). */
export interface ReportTarget {
  kind: ReportTargetKind;
  id: string;
  authorName: string;
}

/** The reasons in the order the dialog offers them; `rule` only when the instance has rules. */
export const reasonLabels: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment or bullying',
  illegal: 'Illegal content',
  rule: 'Breaks one of the instance’s rules',
  other: 'Something else',
};

const reasonHints: Record<ReportReason, string> = {
  spam: 'Advertising, scams, or the same thing posted over and over.',
  harassment: 'Attacks, threats or abuse aimed at someone.',
  illegal: 'Content that is against the law.',
  rule: 'Choose which rule below.',
  other: 'Say what is wrong in the comment.',
};

const thingNames: Record<ReportTargetKind, string> = {
  post: 'post',
  comment: 'comment',
  profile: 'profile',
};

interface Errors {
  reason?: string;
  ruleId?: string;
  comment?: string;
}

/** The dialog's checks, the same the server makes (a reason; a rule with `rule`; a bounded comment). */
export function reportErrors(
  reason: ReportReason | null,
  ruleId: string | null,
  comment: string,
): Errors {
  const errors: Errors = {};
  if (reason === null) errors.reason = 'Choose a reason.';
  if (reason === 'rule' && ruleId === null) errors.ruleId = 'Choose which rule.';
  if (textCounter(comment, reportCommentMax).over) {
    errors.comment = `Use at most ${reportCommentMax} characters.`;
  }
  return errors;
}

interface ReportDialogProps {
  target: ReportTarget;
  onClose: () => void;
  /** Where focus goes back to: the More button the report was started from. */
  returnFocus?: () => HTMLElement | null;
}

/**
 * Report a post, a comment or a profile (issue: moderation and administration §3): a reason — one of
 * the instance's rules when it breaks one — and an optional comment. Says when it was received, and
 * that the outcome will follow as a notification; a second report of the same thing is refused.
 */
export function ReportDialog({ target, onClose, returnFocus }: ReportDialogProps) {
  const create = useCreateReport();
  const rules = useRules();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [ruleId, setRuleId] = useState<string | null>(null);
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  // Each refused attempt moves focus to the first field that needs the reader, once it shows its error.
  const [attempt, setAttempt] = useState(0);
  const id = useId();
  const firstReason = useRef<HTMLInputElement>(null);
  const done = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (attempt === 0) return;
    form.current
      ?.querySelector<HTMLElement>('[data-invalid="true"], [aria-invalid="true"]')
      ?.focus();
  }, [attempt]);

  const thing = thingNames[target.kind];
  const ruleList = rules.data?.rules ?? [];
  const reasons = (Object.keys(reasonLabels) as ReportReason[]).filter(
    (value) => value !== 'rule' || ruleList.length > 0,
  );
  const counter = textCounter(comment, reportCommentMax);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    const found = reportErrors(reason, ruleId, comment);
    setErrors(found);
    if (reason === null || Object.keys(found).length > 0) {
      setAttempt((count) => count + 1);
      return;
    }
    try {
      await create.mutateAsync({
        targetKind: target.kind,
        targetId: target.id,
        reason,
        ruleId: reason === 'rule' ? (ruleId ?? undefined) : undefined,
        comment: comment.trim() === '' ? undefined : comment,
      });
      setSent(true);
    } catch (error) {
      if (isApiError(error, 'conflict')) {
        setFormError(
          `You have already reported this ${thing}. The moderators will look at your report.`,
        );
      } else if (isApiError(error) && Object.keys(error.fields).length > 0) {
        setErrors({
          reason: error.fields.reason,
          ruleId: error.fields.ruleId,
          comment: error.fields.comment,
        });
        setFormError(error.message);
      } else {
        setFormError(error instanceof Error ? error.message : 'The report was not sent.');
      }
    }
  };

  if (sent) {
    // A dialog of its own: reusing the form's would close it, as the form's closing event lands late.
    return (
      <ModalDialog
        key="sent"
        title="Report sent"
        onClose={onClose}
        initialFocus={done}
        returnFocus={returnFocus}
        closeButton={false}
        describedBy={`${id}-sent`}
        className="dialog--report"
      >
        <div role="status" id={`${id}-sent`}>
          <p className="alert alert--success">
            Thanks — the moderators will look at it; you’ll be notified of the outcome.
          </p>
        </div>
        <div className="dialog__actions">
          <button ref={done} type="button" className="button button--primary" onClick={onClose}>
            Done
          </button>
        </div>
      </ModalDialog>
    );
  }

  return (
    <ModalDialog
      key="form"
      title={`Report this ${thing}`}
      onClose={onClose}
      initialFocus={firstReason}
      returnFocus={returnFocus}
      locked={create.isPending}
      describedBy={`${id}-about`}
      className="dialog--report"
    >
      <p id={`${id}-about`} className="report-dialog__about">
        {target.kind === 'profile'
          ? `Tell the moderators what is wrong with ${target.authorName}’s profile.`
          : `Tell the moderators what is wrong with this ${thing} by ${target.authorName}.`}{' '}
        They won’t tell anyone who reported it.
      </p>
      <form
        ref={form}
        className="form report-dialog"
        noValidate
        aria-busy={create.isPending}
        onSubmit={(event) => {
          void onSubmit(event);
        }}
      >
        <FormAlert message={formError} />
        <fieldset
          className={`report-choices${errors.reason ? ' report-choices--invalid' : ''}`}
          aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
        >
          <legend className="report-choices__legend">Why are you reporting it?</legend>
          {reasons.map((value, index) => (
            <label
              key={value}
              className={`report-choice${errors.reason ? ' report-choice--invalid' : ''}`}
            >
              <input
                ref={index === 0 ? firstReason : undefined}
                type="radio"
                name="reason"
                value={value}
                checked={reason === value}
                data-invalid={errors.reason ? true : undefined}
                onChange={() => {
                  setReason(value);
                  setErrors((current) => ({ ...current, reason: undefined }));
                }}
              />
              <span className="report-choice__label">{reasonLabels[value]}</span>
              <span className="report-choice__hint">{reasonHints[value]}</span>
            </label>
          ))}
          {rules.isError ? (
            <p className="report-choices__note">
              The instance’s rules could not be loaded.{' '}
              <button
                type="button"
                className="button button--ghost button--small"
                onClick={() => {
                  void rules.refetch();
                }}
              >
                Try again
              </button>
            </p>
          ) : null}
          {errors.reason ? (
            <p className="field__error" id={`${id}-reason-error`}>
              {errors.reason}
            </p>
          ) : null}
        </fieldset>

        {reason === 'rule' ? (
          <fieldset
            className={`report-choices${errors.ruleId ? ' report-choices--invalid' : ''}`}
            aria-describedby={errors.ruleId ? `${id}-rule-error` : undefined}
          >
            <legend className="report-choices__legend">Which rule does it break?</legend>
            {ruleList.map((rule, index) => (
              <label
                key={rule.id}
                className={`report-choice${errors.ruleId ? ' report-choice--invalid' : ''}`}
              >
                <input
                  type="radio"
                  name="ruleId"
                  value={rule.id}
                  checked={ruleId === rule.id}
                  data-invalid={errors.ruleId ? true : undefined}
                  onChange={() => {
                    setRuleId(rule.id);
                    setErrors((current) => ({ ...current, ruleId: undefined }));
                  }}
                />
                <span className="report-choice__label">
                  {index + 1}. {rule.text}
                </span>
                {rule.description ? (
                  <span className="report-choice__hint">{rule.description}</span>
                ) : null}
              </label>
            ))}
            {errors.ruleId ? (
              <p className="field__error" id={`${id}-rule-error`}>
                {errors.ruleId}
              </p>
            ) : null}
          </fieldset>
        ) : null}

        <TextAreaField
          name="comment"
          label="Anything the moderators should know? (optional)"
          rows={3}
          value={comment}
          counter={counter}
          error={errors.comment}
          onChange={(event) => {
            setComment(event.target.value);
            if (errors.comment) setErrors((current) => ({ ...current, comment: undefined }));
          }}
        />
        <div className="dialog__actions">
          <button
            type="button"
            className="button button--secondary"
            disabled={create.isPending}
            onClick={onClose}
          >
            Cancel
          </button>
          <SubmitButton
            busy={create.isPending}
            label="Send report"
            busyLabel="Sending…"
            block={false}
          />
        </div>
      </form>
    </ModalDialog>
  );
}
