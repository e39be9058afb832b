import {
  configurableNotificationKinds,
  defaultNotificationSettings,
  notificationSettingsSchema,
  isMandatoryKind,
  type EmailMode,
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
    for (const kind of configurableNotificationKinds) {
      const candidate = notificationSettingsSchema.safeParse({
        ...merged,
        [kind]: (stored as Record<string, unknown>)[kind],
      });
      if (candidate.success) merged[kind] = candidate.data[kind];
    }
  }
  return merged;
}

/**
 * How one kind is delivered: the account's choice, or for the mandatory kinds (the moderators' word on the
 * account's own content or standing) always in the app and mailed at once.
 */
export function settingFor(
  settings: NotificationSettings,
  kind: NotificationKind,
): { inApp: boolean; email: EmailMode } {
  return isMandatoryKind(kind) ? { inApp: true, email: 'immediate' } : settings[kind];
}

/** What an unsubscribe link turns off: one kind's mail, or (null) every kind the daily digest carries. */
export function withoutMail(
  settings: NotificationSettings,
  kind: NotificationKind | null,
): NotificationSettings {
  const next = { ...settings };
  for (const each of configurableNotificationKinds) {
    const stops = kind === null ? next[each].email === 'digest' : each === kind;
    if (stops) next[each] = { ...next[each], email: 'never' };
  }
  return next;
}
