import type { NotificationKind } from '@shared/schemas/notification.js';

const stroke = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

/** The kind's shape; decorative (aria-hidden) because the sentence beside it says what happened. */
export function NotificationIcon({ kind }: { kind: NotificationKind }) {
  let shape;
  switch (kind) {
    case 'follow':
      shape = (
        <>
          <circle cx="9" cy="8" r="3.5" {...stroke} />
          <path d="M3 20c0-3.5 2.7-6 6-6s6 2.5 6 6" {...stroke} />
          <path d="M19 8v6M16 11h6" {...stroke} />
        </>
      );
      break;
    case 'like':
    case 'comment_like':
      shape = (
        <path
          d="M12 20.5s-7.5-4.6-9.3-9.3C1.5 8 3.4 4.5 7 4.5c2.1 0 3.5 1.2 5 3 1.5-1.8 2.9-3 5-3 3.6 0 5.5 3.5 4.3 6.7-1.8 4.7-9.3 9.3-9.3 9.3Z"
          fill="currentColor"
        />
      );
      break;
    case 'comment':
      shape = (
        <path
          d="M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.5 4v-4A2.5 2.5 0 0 1 4 13.5v-8Z"
          {...stroke}
        />
      );
      break;
    case 'reply':
      shape = <path d="M9 7 4 12l5 5M4 12h10a6 6 0 0 1 6 6v1" {...stroke} />;
      break;
    case 'mention':
      shape = (
        <>
          <circle cx="12" cy="12" r="3.5" {...stroke} />
          <path d="M15.5 12v1.5a2.5 2.5 0 0 0 5 0V12a8.5 8.5 0 1 0-3.3 6.7" {...stroke} />
        </>
      );
      break;
    case 'report_resolved':
    case 'new_report':
      // A flag: something was reported.
      shape = <path d="M5 21V4m0 0h11l-2 4 2 4H5" {...stroke} />;
      break;
    case 'warning':
    case 'suspension':
    case 'content_removed':
    case 'appeal_decided':
    case 'new_appeal':
      // A shield: the moderators' word.
      shape = (
        <>
          <path
            d="M12 3 4.5 6v5.5c0 4.6 3.2 8 7.5 9.5 4.3-1.5 7.5-4.9 7.5-9.5V6L12 3Z"
            {...stroke}
          />
          <path d="M12 8v4.5M12 16h.01" {...stroke} />
        </>
      );
      break;
    case 'suspension_lifted':
      shape = (
        <>
          <path
            d="M12 3 4.5 6v5.5c0 4.6 3.2 8 7.5 9.5 4.3-1.5 7.5-4.9 7.5-9.5V6L12 3Z"
            {...stroke}
          />
          <path d="m8.5 12 2.5 2.5 4.5-5" {...stroke} />
        </>
      );
      break;
    case 'signup_pending':
      shape = (
        <>
          <circle cx="9" cy="8" r="3.5" {...stroke} />
          <path d="M3 20c0-3.5 2.7-6 6-6s6 2.5 6 6" {...stroke} />
          <circle cx="18" cy="12" r="3.5" {...stroke} />
          <path d="M18 10.5V12l1 1" {...stroke} />
        </>
      );
      break;
  }
  return (
    <span className={`notification__icon notification__icon--${kind}`} aria-hidden="true">
      <svg viewBox="0 0 24 24" width="20" height="20" focusable="false">
        {shape}
      </svg>
    </span>
  );
}
