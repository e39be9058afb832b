import { AppLink } from '@web/components/ui/app-link.js';
import { limits } from '@shared/limits.js';
import type { NotificationGroup } from '@shared/schemas/notification.js';
import { Avatar } from '@web/components/ui/avatar.js';
import { fullTimeLabel, relativeTimeLabel } from '@web/lib/relative-time.js';
import { NotificationIcon } from './notification-icon.js';
import {
  notificationExcerpt,
  notificationHref,
  notificationSentence,
} from './notification-sentence.js';

interface NotificationItemProps {
  group: NotificationGroup;
  /** The time relative times are read against (useNow). */
  now: number;
}

/**
 * One notification or group (issue: notifications §2), as Mastodon and Bluesky show them: the kind's
 * icon, up to three faces, "Ana and 12 others liked your post", the words it is about and when. The
 * sentence is the link to what it is about; the whole row answers to the pointer. Unread ones say
 * "New" in words, not by colour alone.
 */
export function NotificationItem({ group, now }: NotificationItemProps) {
  const sentence = notificationSentence(group);
  const excerpt = notificationExcerpt(group);
  const href = notificationHref(group);
  // The moderators' reason, told to the person acted on (never to reporters or staff).
  const reason = group.moderation?.reason ?? null;
  const faces = group.actors.slice(0, limits.notifications.actorsShown);
  return (
    <li
      className={`notification${group.unread ? ' notification--unread' : ''}`}
      data-notification={group.id}
    >
      <NotificationIcon kind={group.kind} />
      <div className="notification__main">
        <div className="notification__faces">
          {faces.map((actor) => (
            <Avatar key={actor.uid} user={actor} alt="" size="sm" />
          ))}
        </div>
        <p className="notification__text">
          {group.unread ? <span className="notification__new">New</span> : null}
          {href ? (
            <AppLink className="notification__link" to={href}>
              {sentence}
            </AppLink>
          ) : (
            <span>{sentence}</span>
          )}
        </p>
        {excerpt ? <p className="notification__excerpt">{excerpt}</p> : null}
        {reason ? (
          <p className="notification__reason">
            <span className="notification__reason-label">Reason:</span> {reason}
          </p>
        ) : null}
        <time
          className="notification__time"
          dateTime={group.createdAt}
          title={fullTimeLabel(group.createdAt)}
        >
          {relativeTimeLabel(group.createdAt, now)}
        </time>
      </div>
    </li>
  );
}

/** The shape of a notification while the list loads. */
export function NotificationSkeleton() {
  return (
    <li className="notification notification--skeleton" aria-hidden="true">
      <span className="notification__icon skeleton" />
      <div className="notification__main">
        <span className="skeleton skeleton--line skeleton--medium" />
        <span className="skeleton skeleton--line skeleton--short" />
      </div>
    </li>
  );
}
