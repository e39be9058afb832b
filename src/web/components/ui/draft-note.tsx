import { relativeTimeLabel } from '@web/lib/relative-time.js';
import { useNow } from '@web/lib/use-now.js';

interface DraftNoteProps {
  /** When the draft was last written (ms since the epoch). */
  savedAt: number;
  /** Images were chosen when the draft was written; they are not kept. */
  imagesDropped?: boolean;
  onDiscard: () => void;
}

/**
 * "Draft restored" under a form that reopened with what was typed before (issue: notifications,
 * search and the everyday things §4), with a Discard action to start afresh.
 */
export function DraftNote({ savedAt, imagesDropped = false, onDiscard }: DraftNoteProps) {
  const when = relativeTimeLabel(new Date(savedAt).toISOString(), useNow());
  return (
    <div className="draft-note" role="status">
      <p className="draft-note__text">
        Draft restored (saved on this device {when}).
        {imagesDropped ? ' Images aren’t kept in drafts: add them again.' : null}
      </p>
      <button type="button" className="button button--ghost button--small" onClick={onDiscard}>
        Discard draft
      </button>
    </div>
  );
}
