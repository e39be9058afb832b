import { Suspense, useEffect, useId } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { hashtagPath } from '@shared/paths.js';
import type { FeedTab } from '@shared/schemas/post.js';
import type { UserDocument } from '@shared/schemas/user.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { CompassIcon } from '@web/components/ui/icons.js';
import { useAuth } from '@web/features/auth/auth-state.js';
import { FeedEmptyState } from '@web/features/feed/components/feed-empty-state.js';
import { FeedTabs, type FeedTabOption } from '@web/features/feed/components/feed-tabs.js';
import { feedTabSearch, feedViewOf } from '@web/features/feed/feed-view.js';
import { ComposerPlaceholder } from '@web/features/posts/components/composer-placeholder.js';
import { FeedList } from '@web/features/posts/components/feed-list.js';
import { loadPostComposer, PostComposer } from '@web/features/posts/components/lazy-parts.js';
import { PostSkeleton } from '@web/features/posts/components/post-skeleton.js';
import { preloadWhenSettled, usePageSettled } from '@web/lib/page-settled.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { usePostViewer } from '../hooks/use-post-viewer.js';

const signedInTabs: readonly FeedTabOption[] = [
  { tab: 'following', label: 'Following' },
  { tab: 'everyone', label: 'Everyone' },
];
const visitorTabs: readonly FeedTabOption[] = [{ tab: 'everyone', label: 'Everyone' }];

/** Above the feed: the composer, or why there is none (ADR 0005), or an invitation to join. */
function ComposerArea({ user }: { user: UserDocument | null }) {
  // The composer's code comes once the first page has settled; its look-alike holds its place (ADR 0035).
  const settled = usePageSettled();
  if (!user) {
    return (
      <section className="card feed-join" aria-labelledby="feed-join-title">
        <h2 id="feed-join-title" className="feed-join__title">
          Join the conversation
        </h2>
        <p>Sign in to write posts, like them and comment. New here? Create an account first.</p>
        <div className="feed-join__actions">
          <Link className="button button--primary" to="/login">
            Sign in
          </Link>
          <Link className="button button--secondary" to="/register">
            Create an account
          </Link>
        </div>
      </section>
    );
  }
  if (user.suspended) {
    return (
      <p className="notice" role="note">
        Your account is suspended, so you can’t write, like, comment or follow.{' '}
        <Link to="/settings/suspension">Why, and how to appeal</Link>
      </p>
    );
  }
  if (!user.active) {
    return (
      <p className="notice" role="note">
        Your account is awaiting activation by an administrator. Until then you can read posts, but
        you can’t write, like, comment or follow.
      </p>
    );
  }
  if (!settled) return <ComposerPlaceholder user={user} />;
  return (
    <Suspense fallback={<ComposerPlaceholder user={user} />}>
      <PostComposer user={user} />
    </Suspense>
  );
}

/** spec §2, issue: posts §6: / and /feed, open to all. Following and Everyone; ?tag= goes to /tags/{tag}. */
export function FeedPage() {
  const auth = useAuth();
  const viewer = usePostViewer();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = useId();
  const view = feedViewOf(params, auth.authenticated);
  const signedIn = auth.me !== null;
  useEffect(() => {
    // Signed in: the composer's code comes as soon as the first page has settled.
    if (signedIn) preloadWhenSettled(loadPostComposer);
  }, [signedIn]);
  usePageTitle(view.kind === 'bad-tag' ? 'Not a hashtag' : 'Feed');

  // The tag feed has its own address now; old /feed?tag= links keep working.
  if (view.kind === 'tag') {
    return <Navigate to={hashtagPath(view.tag)} replace />;
  }

  if (auth.isLoading) {
    return (
      <div className="page page--narrow feed-page" aria-busy="true">
        <h1 className="page__header">Feed</h1>
        <PostSkeleton />
        <PostSkeleton />
      </div>
    );
  }

  if (view.kind !== 'tab') {
    return (
      <div className="page page--narrow feed-page">
        <p className="feed-page__back">
          <Link to="/feed">
            <span aria-hidden="true">← </span>Back to the feed
          </Link>
        </p>
        <StatusPanel title="That’s not a hashtag" headingLevel={1} icon={<CompassIcon />}>
          <p>Hashtags are letters, digits and underscores, such as #hearth.</p>
        </StatusPanel>
      </div>
    );
  }

  const tabs = auth.authenticated ? signedInTabs : visitorTabs;
  const tabId = (tab: FeedTab) => `${id}-tab-${tab}`;
  const panelId = `${id}-panel`;
  const label = tabs.find((option) => option.tab === view.tab)?.label ?? 'Feed';

  return (
    <div className="page page--narrow feed-page">
      <header className="page__header">
        <h1>Feed</h1>
      </header>
      <ComposerArea user={auth.user} />
      <FeedTabs
        options={tabs}
        selected={view.tab}
        onSelect={(tab) => {
          // Replace, not push: switching tabs is looking, not going somewhere; reload keeps the tab.
          void navigate(
            { search: feedTabSearch(tab) },
            { replace: true, preventScrollReset: true },
          );
        }}
        tabId={tabId}
        panelId={panelId}
      />
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(view.tab)} className="feed-panel">
        <FeedList
          key={view.tab}
          tab={view.tab}
          tag=""
          viewer={viewer}
          label={`${label} feed`}
          empty={
            view.tab === 'following' ? (
              <FeedEmptyState kind="following" everyoneHref={`/feed${feedTabSearch('everyone')}`} />
            ) : (
              <FeedEmptyState kind="everyone" signedIn={auth.authenticated} />
            )
          }
        />
      </div>
    </div>
  );
}
