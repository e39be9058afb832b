import { fullTimeLabel } from '@web/lib/relative-time.js';

interface RemovalNoticeProps {
  /** "post" or "comment". */
  thing: string;
  removal: { reason: string; at: string };
}

/**
 * What the author of a post or comment removed by the moderators sees in its place of actions (issue:
 * moderation and administration §5): that it was removed, when, and why. Nobody else sees it at all.
 */
export function RemovalNotice({ thing, removal }: RemovalNoticeProps) {
  return (
    <div className="removal-notice" role="note">
      <p className="removal-notice__title">
        Removed by moderators{' '}
        <time dateTime={removal.at} className="removal-notice__time">
          {fullTimeLabel(removal.at)}
        </time>
      </p>
      <p className="removal-notice__reason">
        <span className="removal-notice__label">Reason:</span> {removal.reason}
      </p>
      <p className="removal-notice__more">Only you can see this {thing} now.</p>
    </div>
  );
}
