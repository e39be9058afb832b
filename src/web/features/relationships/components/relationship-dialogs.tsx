import { useId, useRef, useState } from 'react';
import type { MuteDuration } from '@shared/schemas/relationship.js';
import { BusyLabel } from '@web/components/ui/busy-label.js';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog.js';
import { ModalDialog } from '@web/components/ui/modal-dialog.js';
import { useChangeRelationship } from '../api/relationships.js';
import { muteDurationChoices } from '../mute-durations.js';

/** Which dialog a menu or button opened, and about whom. */
export type RelationshipDialogKind = 'block' | 'unblock' | 'mute' | 'unmute';

interface RelationshipDialogProps {
  kind: RelationshipDialogKind;
  viewerUid: string;
  uid: string;
  name: string;
  onClose: () => void;
  returnFocus?: () => HTMLElement | null;
}

/**
 * Block, unblock, mute and unmute, each asked first with what it does (ADR 0022). The dialog stays open
 * with the reason when the server says no.
 */
export function RelationshipDialog(props: RelationshipDialogProps) {
  return props.kind === 'mute' ? <MuteDialog {...props} /> : <ConfirmChange {...props} />;
}

const confirmText: Record<
  Exclude<RelationshipDialogKind, 'mute'>,
  { title: (name: string) => string; body: (name: string) => string; label: string; busy: string }
> = {
  block: {
    title: (name) => `Block ${name}?`,
    body: (name) =>
      `Neither of you will see the other’s posts or comments, and neither can follow, comment on, reply to, like or mention the other. You stop following each other. ${name} is not told, but may notice.`,
    label: 'Block',
    busy: 'Blocking…',
  },
  unblock: {
    title: (name) => `Unblock ${name}?`,
    body: (name) =>
      `You will see each other’s posts and comments again, and ${name} can follow and reply to you. Follows ended by the block do not come back.`,
    label: 'Unblock',
    busy: 'Unblocking…',
  },
  unmute: {
    title: (name) => `Unmute ${name}?`,
    body: (name) => `${name}’s posts and comments will show in your feeds and threads again.`,
    label: 'Unmute',
    busy: 'Unmuting…',
  },
};

function ConfirmChange({
  kind,
  viewerUid,
  uid,
  name,
  onClose,
  returnFocus,
}: RelationshipDialogProps) {
  const change = useChangeRelationship(viewerUid);
  if (kind === 'mute') return null;
  const text = confirmText[kind];
  return (
    <ConfirmDialog
      title={text.title(name)}
      confirmLabel={text.label}
      busyLabel={text.busy}
      busy={change.isPending}
      error={change.error ? change.error.message : null}
      onConfirm={() => {
        change.mutate({ action: kind, uid }, { onSuccess: onClose });
      }}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <p>{text.body(name)}</p>
    </ConfirmDialog>
  );
}

function MuteDialog({ viewerUid, uid, name, onClose, returnFocus }: RelationshipDialogProps) {
  const change = useChangeRelationship(viewerUid);
  const [duration, setDuration] = useState<MuteDuration>('indefinite');
  const first = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <ModalDialog
      title={`Mute ${name}?`}
      onClose={onClose}
      initialFocus={first}
      returnFocus={returnFocus}
      locked={change.isPending}
      describedBy={`${id}-about`}
      className="dialog--mute"
    >
      <p id={`${id}-about`}>
        {name}’s posts and comments leave your feeds and threads, and you get no notifications from
        them. They are not told.
      </p>
      <form
        className="form"
        noValidate
        aria-busy={change.isPending}
        onSubmit={(event) => {
          event.preventDefault();
          change.mutate({ action: 'mute', uid, duration }, { onSuccess: onClose });
        }}
      >
        <fieldset className="mute-choices">
          <legend className="mute-choices__legend">For how long?</legend>
          {muteDurationChoices.map((choice, index) => (
            <label key={choice.value} className="mute-choice">
              <input
                ref={index === 0 ? first : undefined}
                type="radio"
                name="duration"
                value={choice.value}
                checked={duration === choice.value}
                onChange={() => {
                  setDuration(choice.value);
                }}
              />
              <span>{choice.label}</span>
            </label>
          ))}
        </fieldset>
        <div role="alert" className="form-alert-region">
          {change.error ? <p className="alert alert--error">{change.error.message}</p> : null}
        </div>
        <div className="dialog__actions">
          <button
            type="button"
            className="button button--secondary"
            disabled={change.isPending}
            onClick={onClose}
          >
            Cancel
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={change.isPending}
            aria-busy={change.isPending}
          >
            <BusyLabel busy={change.isPending} label="Mute" busyLabel="Muting…" />
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
