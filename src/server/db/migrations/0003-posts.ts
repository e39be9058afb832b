import { sql, type Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Posts, comments, likes and follows (issue: posts). Integer ids in insertion order, so every list is a
 * keyset range scan over an index; counters live on their rows and change in the same transaction as
 * the rows they count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp, isPostgres } = columnTypes(db);
  // SQLite: INTEGER PRIMARY KEY AUTOINCREMENT is the row id and is never reused after a delete.
  const idType = isPostgres ? sql`bigint` : sql`integer`;
  const id = (table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', idType, (c) =>
        isPostgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
      );

  for (const column of ['postCount', 'followerCount', 'followingCount']) {
    await db.schema
      .alterTable('users')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }

  await id('posts')
    .addColumn('authorId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .addColumn('editedAt', timestamp)
    .addColumn('likeCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('commentCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('commentsRevision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // A profile's posts and the Following feed: one author's posts newest first.
  await db.schema
    .createIndex('posts_author_id_idx')
    .on('posts')
    .columns(['authorId', 'id'])
    .execute();
  // The Following feed's walk over all posts, newest first, reads authors from this index alone (ADR 0007).
  await db.schema
    .createIndex('posts_id_author_idx')
    .on('posts')
    .columns(['id', 'authorId'])
    .execute();

  await id('post_versions')
    .addColumn('postId', idType, (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('post_versions_post_idx')
    .on('post_versions')
    .columns(['postId', 'id'])
    .execute();

  await db.schema
    .createTable('post_media')
    .addColumn('postId', idType, (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('mediaId', 'text', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('post_media_pk', ['postId', 'position'])
    .execute();
  await db.schema.createIndex('post_media_media_idx').on('post_media').column('mediaId').execute();

  await db.schema
    .createTable('post_tags')
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('postId', idType, (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('post_tags_pk', ['tag', 'postId'])
    .execute();
  await db.schema.createIndex('post_tags_post_idx').on('post_tags').column('postId').execute();

  await id('comments')
    .addColumn('postId', idType, (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('parentId', idType, (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('authorId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .addColumn('editedAt', timestamp)
    .addColumn('likeCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('replyCount', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Top-level comments of a post (parentId IS NULL) and replies of a comment, oldest first.
  await db.schema
    .createIndex('comments_post_idx')
    .on('comments')
    .columns(['postId', 'parentId', 'id'])
    .execute();
  await db.schema
    .createIndex('comments_parent_idx')
    .on('comments')
    .columns(['parentId', 'id'])
    .execute();
  await db.schema.createIndex('comments_author_idx').on('comments').column('authorId').execute();

  for (const [table, target] of [
    ['post_likes', 'postId'],
    ['comment_likes', 'commentId'],
  ] as const) {
    const parent = table === 'post_likes' ? 'posts.id' : 'comments.id';
    await id(table)
      .addColumn(target, idType, (c) => c.notNull().references(parent).onDelete('cascade'))
      .addColumn('userId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('createdAt', timestamp, (c) => c.notNull())
      .execute();
    // One like per person (likes are idempotent), and who liked what, newest first.
    await db.schema
      .createIndex(`${table}_unique_idx`)
      .on(table)
      .columns([target, 'userId'])
      .unique()
      .execute();
    await db.schema.createIndex(`${table}_list_idx`).on(table).columns([target, 'id']).execute();
    // "Which of these do I like": the viewer's likes among a page of items.
    await db.schema
      .createIndex(`${table}_user_idx`)
      .on(table)
      .columns(['userId', target])
      .execute();
  }

  await id('follows')
    .addColumn('followerId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('followeeId', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('createdAt', timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('follows_pair_idx')
    .on('follows')
    .columns(['followerId', 'followeeId'])
    .unique()
    .execute();
  await db.schema
    .createIndex('follows_following_idx')
    .on('follows')
    .columns(['followerId', 'id'])
    .execute();
  await db.schema
    .createIndex('follows_followers_idx')
    .on('follows')
    .columns(['followeeId', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'follows',
    'comment_likes',
    'post_likes',
    'comments',
    'post_tags',
    'post_media',
    'post_versions',
    'posts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  for (const column of ['followingCount', 'followerCount', 'postCount']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
