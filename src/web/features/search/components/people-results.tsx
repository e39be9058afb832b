import { Link } from 'react-router';
import { displayNameOf } from '@shared/display-name.js';
import { profilePath } from '@shared/paths.js';
import type { Author } from '@shared/schemas/post.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { RetryAlert } from '@web/components/ui/retry-alert.js';
import { StatusPanel } from '@web/components/ui/status-panel.js';
import { CompassIcon } from '@web/components/ui/icons.js';
import { isApiError } from '@web/lib/api-client.js';
import { usePeopleSearch } from '../api/search-people.js';

function PersonRow({ person }: { person: Author }) {
  return (
    <li className="person">
      <Avatar user={person} alt="" size="md" />
      <div className="person__names">
        <Link className="person__name" to={profilePath(person)} data-person-link>
          {displayNameOf(person)}
        </Link>
        {person.username ? <span className="person__username">@{person.username}</span> : null}
      </div>
    </li>
  );
}

function PeopleSkeleton() {
  return (
    <ul className="person-list" aria-hidden="true">
      {[0, 1, 2].map((row) => (
        <li key={row} className="person">
          <span className="avatar avatar--md skeleton" />
          <div className="person__names">
            <span className="skeleton skeleton--line skeleton--medium" />
            <span className="skeleton skeleton--line skeleton--short" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** How many were found, for the live region: "3 people". */
export function peopleCountLabel(count: number): string {
  return count === 1 ? '1 person' : `${String(count)} people`;
}

/** People matching `q` as it is typed, each a link to their profile. */
export function PeopleResults({ q }: { q: string }) {
  const query = usePeopleSearch(q);
  const people = query.data?.items ?? [];
  // The answer shown may be for an earlier keystroke while the next is on its way.
  const settled = !query.isPlaceholderData && !query.isFetching;

  let body;
  if (query.isPending) {
    body = <PeopleSkeleton />;
  } else if (query.isError) {
    body = isApiError(query.error, 'validation_failed') ? (
      <p className="alert alert--error" role="alert">
        {query.error.fields.q ?? query.error.message}
      </p>
    ) : (
      <RetryAlert
        onRetry={() => {
          void query.refetch();
        }}
      >
        <p>We couldn’t search for people. {query.error.message}</p>
      </RetryAlert>
    );
  } else if (people.length === 0) {
    body = (
      <StatusPanel title="No people found" icon={<CompassIcon />}>
        <p>
          Nobody’s name or username starts with “{q}”. Check the spelling, or try fewer letters.
        </p>
      </StatusPanel>
    );
  } else {
    body = (
      <ul className="person-list" aria-label={`People matching ${q}`} aria-busy={!settled}>
        {people.map((person) => (
          <PersonRow key={person.uid} person={person} />
        ))}
      </ul>
    );
  }

  return (
    <div className="search-results">
      <p className="visually-hidden" role="status" aria-live="polite">
        {query.isSuccess && settled ? `${peopleCountLabel(people.length)} found.` : ''}
      </p>
      {body}
    </div>
  );
}
