/**
 * The realtime protocol's constants and topic names, free of zod so the web app's first download stays
 * small; the message schemas are in realtime.ts.
 */

/** WebSocket endpoint (DESIGN.md "Realtime"). */
export const realtimePath = '/api/realtime';

/** `users/{uid}`: the user document of spec §3. */
export const userTopicPattern = /^users\/([A-Za-z0-9_-]{1,64})$/;

export function userTopic(uid: string): string {
  return `users/${uid}`;
}

/** `posts/{id}`: one post, its counts and its comments' revision (issue: posts). */
export const postTopicPattern = /^posts\/([1-9][0-9]{0,15})$/;

export function postTopic(postId: string): string {
  return `posts/${postId}`;
}

/** `feed`: the newest post id, and each post as it is created, changed or deleted (issue: posts). */
export const feedTopic = 'feed';

/** True for every topic a client may subscribe to. */
export function isKnownTopic(topic: string): boolean {
  return topic === feedTopic || userTopicPattern.test(topic) || postTopicPattern.test(topic);
}

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
