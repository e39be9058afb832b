import type { z } from 'zod';
import {
  topicNames,
  type ParsedTopic,
  type TopicKey,
  type TopicKind,
  type TopicNaming,
} from '../realtime-protocol.js';
import { feedSignalSchema, postSchema } from '../schemas/post.js';
import { unreadStateSchema } from '../schemas/notification.js';
import { relationshipsSignalSchema } from '../schemas/relationship.js';
import { moderationStateSchema } from '../schemas/report.js';
import { userDocumentSchema } from '../schemas/user.js';
import { isStaff, type Role } from '../roles.js';

/**
 * Who may subscribe to a topic: anyone, signed in or not (`public`), or only the signed-in account whose
 * uid is the topic's key (`self`, for per-account topics such as notifications), or an active, unsuspended
 * moderator or administrator (`staff`, for the console's topics; ADR 0021).
 */
export type TopicAudience = 'public' | 'self' | 'staff';

/** One live topic (ADR 0013): how it is named, the document it carries and who may subscribe. */
export interface TopicDefinition<K extends TopicKind, Document extends z.ZodType> {
  naming: TopicNaming<TopicKey<K>>;
  /** Every document the topic carries, from the first snapshot on, matches this schema. */
  document: Document;
  audience: TopicAudience;
}

function defineTopic<K extends TopicKind, Document extends z.ZodType>(
  kind: K,
  definition: Omit<TopicDefinition<K, Document>, 'naming'>,
): TopicDefinition<K, Document> {
  // The naming lives in the zod-free protocol module, which the web app's first download imports. Each
  // kind's naming takes that kind's key; TypeScript cannot follow `K` into the lookup.
  return { naming: topicNames[kind] as TopicNaming<TopicKey<K>>, ...definition };
}

/**
 * Every live topic, defined once (DESIGN.md "Realtime"). The server authorises subscriptions by
 * `audience` and reads snapshots through its own loader per kind (plugins/realtime.ts); clients type and
 * check each document by its topic's kind.
 */
export const topics = {
  /** spec §3: the user document; null when there is no such user, or once the account is deleted. */
  user: defineTopic('user', { document: userDocumentSchema.nullable(), audience: 'public' }),
  /** issue: posts §7: one post with its counts and comments' revision; null once it is deleted. */
  post: defineTopic('post', { document: postSchema.nullable(), audience: 'public' }),
  /** issue: posts §7: the newest post id, and the change that moved it, if any. */
  feed: defineTopic('feed', { document: feedSignalSchema, audience: 'public' }),
  /** issue: notifications §2: the account's unread count; only its own signed-in tabs may follow it. */
  notifications: defineTopic('notifications', { document: unreadStateSchema, audience: 'self' }),
  /** issue: moderation §2: a revision of whom the account hides; its own signed-in tabs only. */
  relationships: defineTopic('relationships', {
    document: relationshipsSignalSchema,
    audience: 'self',
  }),
  /** ADR 0021: the console's counts; `revision` moves on every report, decision, appeal and sign-up. */
  moderation: defineTopic('moderation', { document: moderationStateSchema, audience: 'staff' }),
} satisfies { [K in TopicKind]: TopicDefinition<K, z.ZodType> };

/** The document a topic of kind K carries (all kinds by default). */
export type TopicDocument<K extends TopicKind = TopicKind> = z.output<
  (typeof topics)[K]['document']
>;

/** Whether `viewer` may subscribe to `topic`: decided once, when a socket subscribes (ADR 0003). */
export function maySubscribe(
  topic: ParsedTopic,
  viewer: { uid: string; role?: Role; active?: boolean; suspended?: boolean } | null,
): boolean {
  const audience = topics[topic.kind].audience;
  switch (audience) {
    case 'public':
      return true;
    case 'self':
      return viewer !== null && topic.key === viewer.uid;
    case 'staff':
      return (
        viewer !== null &&
        viewer.role !== undefined &&
        isStaff(viewer.role) &&
        viewer.active === true &&
        viewer.suspended !== true
      );
  }
}
