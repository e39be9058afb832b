import { Link } from 'react-router';
import { hashtagPath } from '@shared/paths.js';
import { RetryAlert } from '@web/components/ui/retry-alert.js';
import { useTrendingTags } from '../api/get-trending-tags.js';
import { countOf } from '@shared/count-label.js';

/** "12 posts by 5 people": how much a tag was used today. */
export function tagUsageLabel(posts: number, people: number): string {
  return `${countOf(posts, 'post', 'posts')} by ${countOf(people, 'person', 'people')}`;
}

/** The day's most used tags, each leading to its feed (issue: notifications and search §3). */
export function TrendingTags() {
  const query = useTrendingTags();
  let body;
  if (query.isPending) {
    body = (
      <ul className="trending-tags" aria-hidden="true">
        {[0, 1, 2].map((row) => (
          <li key={row} className="trending-tags__item">
            <span className="skeleton skeleton--line skeleton--short" />
          </li>
        ))}
      </ul>
    );
  } else if (query.isError) {
    body = (
      <RetryAlert
        onRetry={() => {
          void query.refetch();
        }}
      >
        <p>We couldn’t load today’s tags. {query.error.message}</p>
      </RetryAlert>
    );
  } else if (query.data.length === 0) {
    body = <p className="trending__empty">No tags were used today yet. Write a post with one!</p>;
  } else {
    body = (
      <ol className="trending-tags">
        {query.data.map((item) => (
          <li key={item.tag} className="trending-tags__item">
            <Link className="trending-tags__link" to={hashtagPath(item.tag)}>
              #{item.tag}
            </Link>
            <span className="trending-tags__count">{tagUsageLabel(item.posts, item.people)}</span>
          </li>
        ))}
      </ol>
    );
  }
  return (
    <section className="card trending" aria-labelledby="trending-title">
      <h2 id="trending-title" className="trending__title">
        Today’s tags
      </h2>
      {body}
    </section>
  );
}
