import { useMemo, useRef, type RefObject } from 'react';
import type { PostView } from '@shared/schemas/post.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { ModalDialog } from '@web/components/ui/modal-dialog.js';
import { PostComposer } from '@web/features/posts/components/post-composer.js';

interface WriteDialogProps {
  /** The signed-in, active author. */
  user: UserDocument;
  onClose: () => void;
  onPosted: (post: PostView) => void;
  /** Where focus goes when the dialog closes; where it was before it opened when this answers null. */
  returnFocus: () => HTMLElement | null;
}

/**
 * The composer in a dialog, opened by Write or `n` from any page (issue: notifications and search §1).
 * The text box has focus from the start: opening it means the reader is about to type.
 */
export function WriteDialog({ user, onClose, onPosted, returnFocus }: WriteDialogProps) {
  const body = useRef<HTMLDivElement>(null);
  // The composer owns its text box; the dialog finds it once both are on screen.
  const textBox: RefObject<HTMLElement | null> = useMemo(
    () => ({
      get current() {
        return body.current?.querySelector<HTMLElement>('textarea') ?? null;
      },
    }),
    [],
  );
  return (
    <ModalDialog
      title="New post"
      onClose={onClose}
      initialFocus={textBox}
      returnFocus={returnFocus}
      className="dialog--write"
    >
      <div ref={body} className="write-dialog__body">
        <PostComposer user={user} onPosted={onPosted} />
      </div>
    </ModalDialog>
  );
}
