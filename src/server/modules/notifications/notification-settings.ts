import {
  defaultNotificationSettings,
  notificationSettingsSchema,
  type NotificationKind,
  type NotificationSettings,
} from '../../../shared/schemas/notification.js';

/**
 * An account's settings from their stored JSON: the defaults when it never saved any. Stored settings were
 * checked when saved; a row that no longer parses (a kind added or renamed since) falls back per kind.
 */
export function settingsFrom(json: string | null): NotificationSettings {
  if (json === null) return defaultNotificationSettings;
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    return defaultNotificationSettings;
  }
  const whole = notificationSettingsSchema.safeParse(stored);
  if (whole.success) return whole.data;
  const merged = { ...defaultNotificationSettings };
  if (typeof stored === 'object' && stored !== null) {
    for (const kind of Object.keys(merged) as NotificationKind[]) {
      const candidate = notificationSettingsSchema.safeParse({
        ...merged,
        [kind]: (stored as Record<string, unknown>)[kind],
      });
      if (candidate.success) merged[kind] = candidate.data[kind];
    }
  }
  return merged;
}

/** What an unsubscribe link turns off: one kind's mail, or (null) every kind the daily digest carries. */
export function withoutMail(
  settings: NotificationSettings,
  kind: NotificationKind | null,
): NotificationSettings {
  const next = { ...settings };
  for (const each of Object.keys(next) as NotificationKind[]) {
    const stops = kind === null ? next[each].email === 'digest' : each === kind;
    if (stops) next[each] = { ...next[each], email: 'never' };
  }
  return next;
}
