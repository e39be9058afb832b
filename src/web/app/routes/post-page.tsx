import { Link } from 'react-router';
import { CompassIcon } from '@web/components/ui/icons.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/**
 * spec §2: /post/{postId}, open. Posts arrive with a later release, so no post can exist yet and
 * every address gets the finished not-found state (the route's loading fallback shows first).
 */
export function PostPage() {
  usePageTitle('Post not found');
  return (
    <div className="page page--narrow">
      <StatusPanel
        title="Post not found"
        headingLevel={1}
        icon={<CompassIcon />}
        actions={
          <Link className="button button--primary" to="/feed">
            Back to the feed
          </Link>
        }
      >
        <p>This post doesn&apos;t exist or was removed.</p>
      </StatusPanel>
    </div>
  );
}
