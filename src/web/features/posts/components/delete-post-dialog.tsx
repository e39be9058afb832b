import { useRef } from 'react';
import { useDeletePost } from '../api/delete-post.js';
import { ModalDialog } from './modal-dialog.js';

interface DeletePostDialogProps {
  postId: string;
  /** Someone else's post (an administrator deleting it). */
  byModerator: boolean;
  returnFocus: () => HTMLElement | null;
  onCancel: () => void;
  onDeleted: (postId: string) => void;
}

/** Issue: posts §1. Deleting asks first; Cancel is where focus starts, so Enter never deletes by accident. */
export function DeletePostDialog({
  postId,
  byModerator,
  returnFocus,
  onCancel,
  onDeleted,
}: DeletePostDialogProps) {
  const remove = useDeletePost();
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      title="Delete this post?"
      onClose={onCancel}
      initialFocus={cancel}
      returnFocus={returnFocus}
      className="dialog--confirm"
    >
      <p>
        {byModerator
          ? 'The post will be removed for everyone, with its comments and likes. Its author will not be able to get it back.'
          : 'Your post will be removed for everyone, with its comments and likes. This can’t be undone.'}
      </p>
      <div role="alert" className="form-alert-region">
        {remove.isError ? <p className="alert alert--error">{remove.error.message}</p> : null}
      </div>
      <div className="dialog__actions">
        <button ref={cancel} type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={remove.isPending}
          aria-busy={remove.isPending}
          onClick={() => {
            remove.mutateAsync(postId).then(
              () => {
                onDeleted(postId);
              },
              () => undefined,
            );
          }}
        >
          {remove.isPending ? (
            <>
              <span className="spinner" aria-hidden="true" />
              Deleting…
            </>
          ) : (
            'Delete'
          )}
        </button>
      </div>
    </ModalDialog>
  );
}
