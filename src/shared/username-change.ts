import { limits } from './limits.js';

/*
 * The username cooldown (issue: profiles): after a rename, the name may change again only once
 * limits.usernameChange.cooldownDays have passed. The server refuses early renames and tells the owner
 * when they may rename (Me.usernameChangeAvailableAt); the edit form shows the same date and words.
 */

const dayMs = 24 * 60 * 60 * 1000;

/** `time` as a date while it is still ahead of `now`; null once it has passed, or for no valid time. */
function stillAhead(time: number, now: number): Date | null {
  return Number.isNaN(time) || time <= now ? null : new Date(time);
}

/** While the cooldown set off by a rename at `changedAt` (ISO-8601) holds at `now`, when it lifts; else null. */
export function usernameCooldownEnds(changedAt: string | null, now: number): Date | null {
  if (!changedAt) return null;
  return stillAhead(Date.parse(changedAt) + limits.usernameChange.cooldownDays * dayMs, now);
}

/** The server's `usernameChangeAvailableAt` as a date while it is still ahead of `now`; else null. */
export function usernameLockedUntil(availableAt: string | null, now: number): Date | null {
  if (!availableAt) return null;
  return stillAhead(Date.parse(availableAt), now);
}

/** What the owner is told while the cooldown holds; `date` is the day it lifts, formatted for them. */
export function usernameCooldownMessage(date: string): string {
  return `You changed your username recently. You can change it again on ${date}.`;
}

/** Until when a name given up at `now` (by a rename or a deletion) stays reserved for its old owner. */
export function usernameReservedUntil(now: number): Date {
  return new Date(now + limits.usernameChange.reserveDays * dayMs);
}
