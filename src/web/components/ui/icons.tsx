/** Small inline icons; decorative (aria-hidden) because the text next to them carries the meaning. */

export function EmberIcon() {
  return (
    <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
      <path
        d="M24 5c2 7 10 11 10 21a10 10 0 0 1-20 0c0-5 3-8 5-11 1 4 3 6 5 6-2-6-1-11 0-16Z"
        fill="currentColor"
        opacity="0.9"
      />
      <circle cx="24" cy="33" r="4" fill="var(--color-surface)" />
    </svg>
  );
}

export function CompassIcon() {
  return (
    <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
      <circle cx="24" cy="24" r="18" fill="none" stroke="currentColor" strokeWidth="3" />
      <path d="m30 18-4 8-8 4 4-8 8-4Z" fill="currentColor" />
    </svg>
  );
}

export function AlertIcon() {
  return (
    <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
      <path
        d="M24 6 44 41H4L24 6Z"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinejoin="round"
      />
      <path d="M24 19v10" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      <circle cx="24" cy="34.5" r="2" fill="currentColor" />
    </svg>
  );
}

export function MailIcon() {
  return (
    <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
      <rect
        x="6"
        y="11"
        width="36"
        height="26"
        rx="4"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
      />
      <path d="m8 14 16 12 16-12" fill="none" stroke="currentColor" strokeWidth="3" />
    </svg>
  );
}

export function CheckIcon() {
  return (
    <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
      <circle cx="24" cy="24" r="18" fill="none" stroke="currentColor" strokeWidth="3" />
      <path
        d="m16 24 6 6 11-12"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Three dots, for the More buttons of posts and comments. */
export function MoreIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <circle cx="5" cy="12" r="2" fill="currentColor" />
      <circle cx="12" cy="12" r="2" fill="currentColor" />
      <circle cx="19" cy="12" r="2" fill="currentColor" />
    </svg>
  );
}
