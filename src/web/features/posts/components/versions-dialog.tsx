import { ModalDialog } from '@web/components/ui/modal-dialog.js';
import { RetryAlert } from '@web/components/ui/retry-alert.js';
import { RichText } from '@web/components/ui/rich-text.js';
import { fullTimeLabel } from '@web/lib/relative-time.js';
import { usePostVersions } from '../api/get-post-versions.js';

interface VersionsDialogProps {
  postId: string;
  /** The text as it reads now, and since when. */
  body: string;
  editedAt: string;
  onClose: () => void;
}

/** Issue: posts §1. An edited post's earlier texts, newest first, under the current one. */
export function VersionsDialog({ postId, body, editedAt, onClose }: VersionsDialogProps) {
  const query = usePostVersions(postId);
  return (
    <ModalDialog title="Edit history" onClose={onClose} className="dialog--list">
      <ol className="versions">
        <li className="versions__item">
          <p className="versions__when">
            <strong>Current version</strong>, edited{' '}
            <time dateTime={editedAt}>{fullTimeLabel(editedAt)}</time>
          </p>
          <RichText as="div" className="post__body" text={body} mentions hashtags />
        </li>
        {query.data?.map((version, index) => (
          <li key={`${version.createdAt}-${String(index)}`} className="versions__item">
            <p className="versions__when">
              {index === query.data.length - 1 ? 'Original, written' : 'Earlier version, written'}{' '}
              <time dateTime={version.createdAt}>{fullTimeLabel(version.createdAt)}</time>
            </p>
            <RichText as="div" className="post__body" text={version.body} mentions hashtags />
          </li>
        ))}
      </ol>
      {query.isPending ? (
        <p className="dialog__status" role="status">
          <span className="spinner" aria-hidden="true" /> Loading earlier versions…
        </p>
      ) : null}
      {query.isError ? (
        <RetryAlert
          onRetry={() => {
            void query.refetch();
          }}
        >
          <p>{query.error.message}</p>
        </RetryAlert>
      ) : null}
    </ModalDialog>
  );
}
