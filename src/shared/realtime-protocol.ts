/**
 * The realtime protocol's constants and how topics are named, free of zod so the web app's first download
 * stays small. Each topic's document and audience are in contract/topics.ts (ADR 0013), the message
 * schemas in realtime.ts.
 */

import { idDigits } from './ids.js';

/** WebSocket endpoint (DESIGN.md "Realtime"). */
export const realtimePath = '/api/realtime';

/** Builds the names of one kind of topic and reads them back. */
export interface TopicNaming<Key extends string | null> {
  build: (key: Key) => string;
  /** The key of a name of this kind, or undefined when the name is not of this kind. */
  parse: (name: string) => Key | undefined;
}

/** `{prefix}{key}`, where the key must match `keyPattern` whole. */
function keyed(prefix: string, keyPattern: string): TopicNaming<string> {
  const pattern = new RegExp(`^${keyPattern}$`);
  return {
    build: (key) => `${prefix}${key}`,
    parse: (name) => {
      if (!name.startsWith(prefix)) return undefined;
      const key = name.slice(prefix.length);
      return pattern.test(key) ? key : undefined;
    },
  };
}

/** A topic with one fixed name and no key. */
function single(name: string): TopicNaming<null> {
  return { build: () => name, parse: (candidate) => (candidate === name ? null : undefined) };
}

/**
 * The name of every kind of topic. Key patterns are strict: a client can make the server look up only
 * well-formed ids.
 */
export const topicNames = {
  /** `users/{uid}`: the user document of spec §3. */
  user: keyed('users/', '[A-Za-z0-9_-]{1,64}'),
  /** `posts/{id}`: one post, its counts and its comments' revision (issue: posts). */
  post: keyed('posts/', idDigits),
  /** `feed`: the newest post id, and each post as it is created, changed or deleted (issue: posts). */
  feed: single('feed'),
  /** `notifications/{uid}`: one account's unread count, for its own tabs only (issue: notifications). */
  notifications: keyed('notifications/', '[A-Za-z0-9_-]{1,64}'),
  /** `relationships/{uid}`: whom one account hides (blocks, mutes), for its own tabs only (ADR 0022). */
  relationships: keyed('relationships/', '[A-Za-z0-9_-]{1,64}'),
  /** `moderation`: the console's counts of open reports, appeals and sign-ups, for staff only (ADR 0021). */
  moderation: single('moderation'),
};

export type TopicKind = keyof typeof topicNames;

/** Every kind of topic, in the order `parseTopic` tries them. */
export const topicKinds = Object.keys(topicNames) as TopicKind[];

/** What names a topic of kind K: an id, or null for a topic of its own (`feed`). */
export type TopicKey<K extends TopicKind> = Parameters<(typeof topicNames)[K]['build']>[0];

declare const topicKindBrand: unique symbol;

/**
 * A topic's name, with its kind known to the type system: a reader learns a document's type from the topic
 * it subscribed to, never from the document's shape. At run time it is the plain string.
 */
export type TopicName<K extends TopicKind = TopicKind> = string & { readonly [topicKindBrand]: K };

/** A topic name read back into its kind and key. */
export type ParsedTopic = {
  [K in TopicKind]: { kind: K; key: TopicKey<K>; name: TopicName<K> };
}[TopicKind];

/** The name of the topic of kind `kind` and key `key`. */
export function topicName<K extends TopicKind>(kind: K, key: TopicKey<K>): TopicName<K> {
  // Each kind's builder takes that kind's key; TypeScript cannot follow `K` into the lookup.
  const build = topicNames[kind].build as (key: TopicKey<K>) => string;
  return build(key) as TopicName<K>;
}

/** The kind and key of a topic name, or null for a name no topic has. */
export function parseTopic(name: string): ParsedTopic | null {
  for (const kind of topicKinds) {
    const key = topicNames[kind].parse(name);
    // The key was read by this kind's own naming, so name and key are of this kind.
    if (key !== undefined) return { kind, key, name } as ParsedTopic;
  }
  return null;
}

/** `users/{uid}`. */
export function userTopic(uid: string): TopicName<'user'> {
  return topicName('user', uid);
}

/** `posts/{id}`. */
export function postTopic(postId: string): TopicName<'post'> {
  return topicName('post', postId);
}

/** `feed`. */
export const feedTopic: TopicName<'feed'> = topicName('feed', null);

/** The topic of one account's unread notifications. */
export function notificationsTopic(uid: string): TopicName<'notifications'> {
  return topicName('notifications', uid);
}

/** The topic of whom one account hides: it changes when a block or mute involving the account does. */
export function relationshipsTopic(uid: string): TopicName<'relationships'> {
  return topicName('relationships', uid);
}

/** `moderation`: staff only. */
export const moderationTopic: TopicName<'moderation'> = topicName('moderation', null);

/** Close codes the server uses; the client reconnects on all but `policy`. */
export const realtimeCloseCodes = {
  normal: 1000,
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
} as const;

/** Heartbeat cadence: clients ping at this interval and reconnect when no pong comes back in time. */
export const heartbeatIntervalMs = 25_000;
export const heartbeatTimeoutMs = 10_000;
