import type { MuteDuration } from '@shared/schemas/relationship.js';

/** The mute dialog's choices, in order, with how each reads. */
export const muteDurationChoices: readonly { value: MuteDuration; label: string }[] = [
  { value: '1h', label: '1 hour' },
  { value: '1d', label: '1 day' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: 'indefinite', label: 'Until I unmute' },
];

/** "Muted until 3 May, 14:00", or "Muted until you unmute" for a mute without an end. */
export function muteUntilLabel(expiresAt: string | null, locale?: string): string {
  if (expiresAt === null) return 'Muted until you unmute';
  const until = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(expiresAt),
  );
  return `Muted until ${until}`;
}
