import { ConfirmDialog } from '@web/components/ui/confirm-dialog.js';
import { useDeletePost } from '../api/delete-post.js';

interface DeletePostDialogProps {
  postId: string;
  /** Someone else's post (an administrator deleting it). */
  byModerator: boolean;
  returnFocus: () => HTMLElement | null;
  onCancel: () => void;
  onDeleted: (postId: string) => void;
}

/** Issue: posts §1. Deleting asks first. */
export function DeletePostDialog({
  postId,
  byModerator,
  returnFocus,
  onCancel,
  onDeleted,
}: DeletePostDialogProps) {
  const remove = useDeletePost();
  return (
    <ConfirmDialog
      title="Delete this post?"
      confirmLabel="Delete"
      busyLabel="Deleting…"
      busy={remove.isPending}
      error={remove.isError ? remove.error.message : null}
      returnFocus={returnFocus}
      onClose={onCancel}
      onConfirm={() => {
        remove.mutateAsync(postId).then(
          () => {
            onDeleted(postId);
          },
          () => undefined,
        );
      }}
    >
      <p>
        {byModerator
          ? 'The post will be removed for everyone, with its comments and likes. Its author will not be able to get it back.'
          : 'Your post will be removed for everyone, with its comments and likes. This can’t be undone.'}
      </p>
    </ConfirmDialog>
  );
}
