import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { instanceLimits, type InstanceRule } from '@shared/schemas/instance.js';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog.js';
import { FormAlert } from '@web/components/ui/form-alert.js';
import { FormStatus } from '@web/components/ui/form-status.js';
import { SubmitButton } from '@web/components/ui/submit-button.js';
import { TextAreaField } from '@web/components/ui/text-area-field.js';
import { TextField } from '@web/components/ui/text-field.js';
import { ApiError } from '@web/lib/api-client.js';
import { textCounter } from '@web/lib/text-counter.js';
import { useChangeRules, type RuleChange } from '../api/rules.js';
import { RulesList } from './rules-list.js';

interface RuleFormProps {
  /** The rule being edited; a new rule when absent. */
  rule?: InstanceRule;
  submitLabel: string;
  onSave: (rule: { text: string; description: string | null }) => Promise<unknown>;
  onCancel?: () => void;
  disabled?: boolean;
}

function RuleForm({ rule, submitLabel, onSave, onCancel, disabled = false }: RuleFormProps) {
  const [text, setText] = useState(rule?.text ?? '');
  const [description, setDescription] = useState(rule?.description ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const textCount = textCounter(text, instanceLimits.ruleText);
  const descriptionCount = textCounter(description, instanceLimits.ruleDescription);
  const fields = error instanceof ApiError ? error.fields : {};
  const localTextError = text.trim() === '' && error ? 'Write the rule.' : undefined;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (text.trim() === '') {
      setError(new Error('Write the rule.'));
      return;
    }
    setBusy(true);
    setError(null);
    onSave({ text, description: description.trim() === '' ? null : description }).then(
      () => {
        setBusy(false);
        if (!rule) {
          setText('');
          setDescription('');
        }
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure instanceof Error ? failure : new Error('Something went wrong.'));
      },
    );
  };

  const alert =
    error && !fields.text && !fields.description && !localTextError ? error.message : null;
  return (
    <form className="form rule-form" onSubmit={submit} noValidate>
      <fieldset className="form__fieldset" disabled={busy || disabled}>
        <TextField
          name="text"
          label={rule ? 'Rule' : 'New rule'}
          value={text}
          maxLength={instanceLimits.ruleText * 2}
          error={fields.text ?? localTextError}
          hint={`Short and plain: at most ${instanceLimits.ruleText} characters.`}
          onChange={(event) => {
            setText(event.target.value);
          }}
        />
        <TextAreaField
          name="description"
          label="Explanation (optional)"
          rows={2}
          value={description}
          counter={descriptionCount}
          error={fields.description}
          onChange={(event) => {
            setDescription(event.target.value);
          }}
        />
      </fieldset>
      <FormAlert message={alert} />
      <div className="form__actions">
        {onCancel ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={onCancel}
            disabled={busy}
          >
            Cancel
          </button>
        ) : null}
        <SubmitButton
          busy={busy}
          label={submitLabel}
          busyLabel="Saving…"
          disabled={disabled || textCount.over || descriptionCount.over}
        />
      </div>
    </form>
  );
}

interface RulesEditorProps {
  rules: readonly InstanceRule[];
  /** Moderators see the rules but cannot change them. */
  readOnly: boolean;
}

/**
 * Add, edit in place, delete (after asking) and reorder the rules with Move up and Move down, every step
 * reachable from the keyboard (issue: moderation and administration §4, "Instance").
 */
export function RulesEditor({ rules, readOnly }: RulesEditorProps) {
  const change = useChangeRules();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<InstanceRule | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  /** The rule just moved, and where it went: focus follows it once the list shows it there. */
  const [moved, setMoved] = useState<{ id: string; up: boolean; index: number } | null>(null);
  const focused = useRef<typeof moved>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const full = rules.length >= instanceLimits.rules;

  // Keeps the keyboard where it was after a move: on the same button, or its pair once at an end.
  useEffect(() => {
    if (!moved || focused.current === moved) return;
    if (rules.findIndex((rule) => rule.id === moved.id) !== moved.index) return;
    focused.current = moved;
    const same = buttons.current.get(`${moved.id}:${moved.up ? 'up' : 'down'}`);
    const other = buttons.current.get(`${moved.id}:${moved.up ? 'down' : 'up'}`);
    (same && !same.disabled ? same : other)?.focus();
  }, [moved, rules]);

  if (readOnly) {
    return rules.length === 0 ? (
      <p className="muted">This instance has no rules yet.</p>
    ) : (
      <RulesList rules={rules} />
    );
  }

  const run = (request: RuleChange, done: string) =>
    change.mutateAsync(request).then(() => {
      setNotice(done);
    });

  const move = (index: number, up: boolean) => {
    const ids = rules.map((rule) => rule.id);
    const to = up ? index - 1 : index + 1;
    const id = ids[index];
    const other = ids[to];
    if (id === undefined || other === undefined) return;
    ids[index] = other;
    ids[to] = id;
    setMoveError(null);
    change.mutate(
      { kind: 'reorder', ids },
      {
        onSuccess: () => {
          setNotice(`Moved rule ${index + 1} to position ${to + 1}.`);
          setMoved({ id, up, index: to });
        },
        onError: (error) => {
          setMoveError(error.message);
        },
      },
    );
  };

  const setButton = (key: string) => (element: HTMLButtonElement | null) => {
    if (element) buttons.current.set(key, element);
    else buttons.current.delete(key);
  };

  return (
    <div className="rules-editor">
      <p className="rules-editor__count" id="rules-count">
        {rules.length} of {instanceLimits.rules} rules
      </p>
      {rules.length === 0 ? (
        <p className="muted">
          No rules yet. Rules are shown at sign-up, in the report dialog and on the public
          moderation page.
        </p>
      ) : (
        <ol className="rules-editor__list">
          {rules.map((rule, index) => (
            <li key={rule.id} className="rules-editor__item">
              {editing === rule.id ? (
                <RuleForm
                  rule={rule}
                  submitLabel="Save rule"
                  onSave={(input) =>
                    run({ kind: 'update', ruleId: rule.id, rule: input }, 'Rule saved.').then(
                      () => {
                        setEditing(null);
                      },
                    )
                  }
                  onCancel={() => {
                    setEditing(null);
                  }}
                />
              ) : (
                <div className="rules-editor__rule">
                  <div className="rules-editor__words">
                    <span className="rules-editor__number">{index + 1}.</span>
                    <span className="rules-list__text">{rule.text}</span>
                    {rule.description ? (
                      <span className="rules-list__description">{rule.description}</span>
                    ) : null}
                  </div>
                  <div
                    className="rules-editor__actions"
                    role="group"
                    aria-label={`Rule ${index + 1}`}
                  >
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      onClick={() => {
                        setEditing(rule.id);
                      }}
                      aria-label={`Edit rule ${index + 1}`}
                    >
                      Edit
                    </button>
                    <button
                      ref={setButton(`${rule.id}:up`)}
                      type="button"
                      className="button button--ghost button--small"
                      disabled={index === 0 || change.isPending}
                      onClick={() => {
                        move(index, true);
                      }}
                      aria-label={`Move up rule ${index + 1}`}
                    >
                      Move up
                    </button>
                    <button
                      ref={setButton(`${rule.id}:down`)}
                      type="button"
                      className="button button--ghost button--small"
                      disabled={index === rules.length - 1 || change.isPending}
                      onClick={() => {
                        move(index, false);
                      }}
                      aria-label={`Move down rule ${index + 1}`}
                    >
                      Move down
                    </button>
                    <button
                      type="button"
                      className="button button--ghost button--small rules-editor__delete"
                      onClick={() => {
                        change.reset();
                        setDeleting(rule);
                      }}
                      aria-label={`Delete rule ${index + 1}`}
                    >
                      Delete
                    </button>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      <div role="alert" className="form-alert-region">
        {moveError ? <p className="alert alert--error">{moveError}</p> : null}
      </div>
      <FormStatus autoClear={{ notice, clear: () => setNotice(null) }}>{notice}</FormStatus>
      <section className="rules-editor__add" aria-labelledby="add-rule-heading">
        <h3 id="add-rule-heading" tabIndex={-1}>
          Add a rule
        </h3>
        {full ? (
          <p className="notice" role="note">
            This instance has the most rules it may ({instanceLimits.rules}). Delete or merge one to
            add another.
          </p>
        ) : null}
        <RuleForm
          submitLabel="Add rule"
          disabled={full}
          onSave={(input) => run({ kind: 'create', rule: input }, 'Rule added.')}
        />
      </section>
      {deleting ? (
        <ConfirmDialog
          title="Delete this rule?"
          confirmLabel="Delete rule"
          busyLabel="Deleting…"
          busy={change.isPending}
          error={change.error?.message ?? null}
          onConfirm={() => {
            change.mutate(
              { kind: 'delete', ruleId: deleting.id },
              {
                onSuccess: () => {
                  setDeleting(null);
                  setNotice('Rule deleted.');
                },
              },
            );
          }}
          onClose={() => {
            setDeleting(null);
          }}
          returnFocus={() => document.getElementById('add-rule-heading')}
        >
          <p>
            “{deleting.text}” will no longer be shown at sign-up or offered in reports. Reports that
            named it keep its wording.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
