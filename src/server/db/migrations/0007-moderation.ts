import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Moderation and administration (issue: moderation and administration, ADR 0021): suspensions and sign-up
 * answers on the account; content removed by moderators; blocks and mutes; reports with a snapshot of what
 * was reported; the audit log of every moderator and administrator action; appeals; private notes; the
 * instance's settings and rules; and daily aggregates of the web app's page-performance reports.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, boolean, isPostgres } = columnTypes(db);
  const idType = isPostgres ? sql`bigint` : sql`integer`;
  const id = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', idType, (c) =>
        isPostgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
      );
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).on(table).columns(columns).execute();

  // Suspension is not deactivation: `active` stays the spec's reversible flag. Suspended while
  // suspendedAt is set and suspendedUntil is null (indefinitely) or still ahead.
  await db.schema.alterTable('users').addColumn('suspendedAt', timestamp).execute();
  await db.schema.alterTable('users').addColumn('suspendedUntil', timestamp).execute();
  await db.schema.alterTable('users').addColumn('suspensionReason', 'text').execute();
  // The audit entry of the suspension, which an appeal answers.
  await db.schema.alterTable('users').addColumn('suspensionActionId', idType).execute();
  // Approval mode: waiting for a moderator (distinct from an account deactivated later), and the answer to
  // the instance's sign-up question.
  await db.schema
    .alterTable('users')
    .addColumn('awaitingApproval', boolean, (c) => c.notNull().defaultTo(isPostgres ? false : 0))
    .execute();
  await db.schema.alterTable('users').addColumn('signupAnswer', 'text').execute();
  await db.schema.alterTable('users').addColumn('lastActiveAt', timestamp).execute();
  await index('users_role_idx', 'users', ['role']);
  await index('users_lastActiveAt_idx', 'users', ['lastActiveAt']);

  // Removed by moderators: hidden from everyone but its author, who sees why.
  for (const table of ['posts', 'comments']) {
    await db.schema.alterTable(table).addColumn('removedAt', timestamp).execute();
    await db.schema.alterTable(table).addColumn('removalReason', 'text').execute();
  }

  for (const [table, actor, subject] of [
    ['blocks', 'blockerId', 'blockedId'],
    ['mutes', 'muterId', 'mutedId'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(actor, 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn(subject, 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('createdAt', timestamp, (c) => c.notNull())
      // Mutes only: when the mute ends by itself; null for as long as it is kept.
      .$call((builder) => (table === 'mutes' ? builder.addColumn('expiresAt', timestamp) : builder))
      .addPrimaryKeyConstraint(`${table}_pk`, [actor, subject])
      .execute();
    // "Who blocked me": the other direction of every check.
    await index(`${table}_${subject}_idx`, table, [subject, actor]);
  }

  // The audit log: who did what, to whom, why and when. Names are kept as they were, so the log still
  // reads after an account is renamed or deleted.
  await id('moderation_actions')
    // null: the operator, through the command line.
    .addColumn('actorId', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actorName', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('targetUserId', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('targetName', 'text')
    // A post, comment or report the action was about, with a short excerpt of it.
    .addColumn('subjectKind', 'text')
    .addColumn('subjectId', 'text')
    .addColumn('excerpt', 'text')
    // Told to the person and, when the log is public, to everyone.
    .addColumn('reason', 'text')
    // Seen by moderators only.
    .addColumn('note', 'text')
    // JSON: what else the action needs (a role's before and after, a suspension's end…).
    .addColumn('details', 'text')
    // Whether the public moderation log may show it (never reporters, notes or sign-up decisions).
    .addColumn('public', boolean, (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await index('moderation_actions_target_idx', 'moderation_actions', ['targetUserId', 'id']);
  await index('moderation_actions_public_idx', 'moderation_actions', ['public', 'id']);
  await index('moderation_actions_actor_idx', 'moderation_actions', ['actorId']);

  await id('reports')
    .addColumn('reporterId', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('targetKind', 'text', (c) => c.notNull())
    .addColumn('targetId', 'text', (c) => c.notNull())
    // The reported account (the author of a post or comment); kept when the account goes.
    .addColumn('targetUserId', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ruleId', idType)
    .addColumn('comment', 'text')
    // JSON: the reported content as it was, kept even if its author deletes it.
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // What was done: dismissed, removed, warned, suspended.
    .addColumn('outcome', 'text')
    .addColumn('resolvedBy', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolvedAt', timestamp)
    .addColumn('actionId', idType)
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await index('reports_status_idx', 'reports', ['status', 'id']);
  await index('reports_target_idx', 'reports', ['targetKind', 'targetId']);
  await index('reports_target_user_idx', 'reports', ['targetUserId', 'id']);
  await index('reports_reporter_idx', 'reports', ['reporterId', 'id']);
  // Reporting the same thing twice while it is open is a conflict.
  await db.schema
    .createIndex('reports_open_once_idx')
    .unique()
    .on('reports')
    .columns(['reporterId', 'targetKind', 'targetId'])
    .where(sql.ref('status'), '=', 'open')
    .execute();

  await id('appeals')
    .addColumn('userId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The suspension (its audit entry) appealed: one appeal each.
    .addColumn('actionId', idType, (c) => c.notNull().unique())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('decidedBy', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decidedAt', timestamp)
    .addColumn('decisionReason', 'text')
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await index('appeals_status_idx', 'appeals', ['status', 'id']);
  await index('appeals_user_idx', 'appeals', ['userId', 'id']);

  await id('moderation_notes')
    .addColumn('userId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('authorId', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('authorName', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await index('moderation_notes_user_idx', 'moderation_notes', ['userId', 'id']);

  // Settings an administrator changes in the console; a missing key keeps its default (or the
  // environment's, for the registration mode).
  await db.schema
    .createTable('instance_settings')
    .addColumn('key', 'text', (c) => c.primaryKey().notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updatedAt', timestamp, (c) => c.notNull())
    .execute();

  await id('instance_rules')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .addColumn('updatedAt', timestamp, (c) => c.notNull())
    .execute();

  // Page-performance reports, kept only as daily histograms: per day, page, metric and bucket, a count.
  await db.schema
    .createTable('web_vitals')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('bucket', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('web_vitals_pk', ['day', 'page', 'metric', 'bucket'])
    .execute();
  // The dashboard counts posts and comments per day over the last 30 days.
  await index('posts_createdAt_idx', 'posts', ['createdAt']);
  await index('comments_createdAt_idx', 'comments', ['createdAt']);

  // Moderation notifications name a report, appeal or audit entry instead of (or beside) a post.
  await db.schema.alterTable('notifications').addColumn('subjectId', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notifications').dropColumn('subjectId').execute();
  await db.schema.dropIndex('comments_createdAt_idx').execute();
  await db.schema.dropIndex('posts_createdAt_idx').execute();
  for (const table of [
    'web_vitals',
    'instance_rules',
    'instance_settings',
    'moderation_notes',
    'appeals',
    'reports',
    'moderation_actions',
    'mutes',
    'blocks',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  for (const table of ['posts', 'comments']) {
    await db.schema.alterTable(table).dropColumn('removalReason').execute();
    await db.schema.alterTable(table).dropColumn('removedAt').execute();
  }
  await db.schema.dropIndex('users_lastActiveAt_idx').execute();
  await db.schema.dropIndex('users_role_idx').execute();
  for (const column of [
    'lastActiveAt',
    'signupAnswer',
    'awaitingApproval',
    'suspensionActionId',
    'suspensionReason',
    'suspendedUntil',
    'suspendedAt',
  ]) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
