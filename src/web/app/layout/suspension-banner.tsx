import { Link } from 'react-router';
import type { Suspension } from '@shared/schemas/user.js';
import { fullTimeLabel } from '@web/lib/relative-time.js';

/**
 * Shown to a signed-in account the moderators suspended (issue: moderation and administration §5): until
 * when, and a link to the page with the reason and the appeal.
 */
export function SuspensionBanner({ suspension }: { suspension: Suspension | null }) {
  const until = suspension?.until ?? null;
  return (
    <div className="banner banner--suspended" role="note">
      <p className="banner__text">
        {until ? (
          <>
            Your account is suspended until <time dateTime={until}>{fullTimeLabel(until)}</time>.
          </>
        ) : (
          'Your account is suspended.'
        )}{' '}
        You can read, but you can’t post or change anything others see.
      </p>
      <Link className="button button--ghost button--small" to="/settings/suspension">
        Why, and how to appeal
      </Link>
    </div>
  );
}
