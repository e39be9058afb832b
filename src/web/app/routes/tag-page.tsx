import { Link, Navigate, useParams } from 'react-router';
import { hashtagPath } from '@shared/paths.js';
import { CompassIcon } from '@web/components/ui/icons.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { FeedEmptyState } from '@web/features/feed/components/feed-empty-state.js';
import { FeedList } from '@web/features/posts/components/feed-list.js';
import { useTrendingTags } from '@web/features/search/api/get-trending-tags.js';
import { tagUsageLabel } from '@web/features/search/components/trending-tags.js';
import { hashtagOf } from '@web/lib/rich-segments.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { usePostViewer } from '../hooks/use-post-viewer.js';

/** How much the tag was used today, when it is among the day's tags. */
function TagUsage({ tag }: { tag: string }) {
  const trending = useTrendingTags();
  const today = trending.data?.find((item) => item.tag === tag);
  if (!today) return null;
  return <p className="tag-page__usage">Today: {tagUsageLabel(today.posts, today.people)}.</p>;
}

/**
 * /tags/{tag} (issue: notifications and search §3): the Everyone feed of one hashtag at its own address,
 * newest first and live. A tag spelled otherwise (#Hearth, HEARTH) goes to its one address.
 */
export function TagPage() {
  const { tag: raw = '' } = useParams();
  const viewer = usePostViewer();
  const tag = hashtagOf(raw);
  usePageTitle(tag ? `#${tag}` : 'Not a hashtag');

  if (tag === null) {
    return (
      <div className="page page--narrow feed-page">
        <StatusPanel title="That’s not a hashtag" headingLevel={1} icon={<CompassIcon />}>
          <p>Hashtags are letters, digits and underscores, such as #hearth.</p>
        </StatusPanel>
      </div>
    );
  }
  if (tag !== raw) return <Navigate to={hashtagPath(tag)} replace />;

  return (
    <div className="page page--narrow feed-page tag-page">
      <p className="feed-page__back">
        <Link to="/search">
          <span aria-hidden="true">← </span>Search and today’s tags
        </Link>
      </p>
      <header className="page__header">
        <h1>#{tag}</h1>
        <p className="lede">Posts from everyone with #{tag}, newest first.</p>
        <TagUsage tag={tag} />
      </header>
      <FeedList
        key={tag}
        tab="everyone"
        tag={tag}
        viewer={viewer}
        label={`Posts with #${tag}`}
        empty={<FeedEmptyState kind="tag" tag={tag} feedHref="/feed" />}
      />
    </div>
  );
}
