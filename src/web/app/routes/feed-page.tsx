import { useAuth } from '@web/features/auth/auth-state.js';
import { FeedEmptyState } from '@web/features/feed/components/feed-empty-state.js';
import { usePageTitle } from '../hooks/use-page-title.js';

/** spec §2: / and /feed, open to all. Posts arrive in a later release; today the feed is empty. */
export function FeedPage() {
  usePageTitle('Feed');
  const auth = useAuth();
  return (
    <div className="page page--narrow">
      <header className="page__header">
        <h1>Feed</h1>
      </header>
      <FeedEmptyState signedIn={auth.isLoading ? null : auth.authenticated} />
    </div>
  );
}
