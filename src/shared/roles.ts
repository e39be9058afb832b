// Roles and what they rank, kept free of zod: the web app's navigation needs them on its first load
// (ADR 0032), and the schemas build on them (schemas/user.ts).

/**
 * spec §3's `user` and `admin`, and `moderator` between them (issue: moderation and administration §1):
 * moderators handle reports and content and suspend people; administrators also manage roles, rules and
 * the instance.
 */
export const roles = ['user', 'moderator', 'admin'] as const;
export type Role = (typeof roles)[number];

/** A stored role as the contract knows it; anything unknown is an ordinary user. */
export function toRole(value: string | null | undefined): Role {
  return value === 'admin' || value === 'moderator' ? value : 'user';
}

/** Moderators and administrators: the people who see the console. */
export function isStaff(role: Role): boolean {
  return role !== 'user';
}

/** How much a role may do; nobody acts on an account of equal or higher rank. */
export function roleRank(role: Role): number {
  return roles.indexOf(role);
}
