import { z } from 'zod';
import { userDocumentSchema } from './schemas/user.js';

/** WebSocket endpoint (DESIGN.md "Realtime"). */
export const realtimePath = '/api/realtime';

/** Topics that can be subscribed to, each with the document it carries. */
export const userTopicPattern = /^users\/([A-Za-z0-9_-]{1,64})$/;

export function userTopic(uid: string): string {
  return `users/${uid}`;
}

export const topicSchema = z
  .string()
  .max(200)
  .refine((topic) => userTopicPattern.test(topic), 'Unknown topic.');

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), topic: topicSchema }),
  z.object({ type: z.literal('unsubscribe'), topic: topicSchema }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** Documents that topics carry; `null` means the document does not exist (or was deleted). */
export const topicDocumentSchema = userDocumentSchema.nullable();

export const serverMessageSchema = z.discriminatedUnion('type', [
  /** The whole document: sent once after subscribe, then after every change. */
  z.object({ type: z.literal('doc'), topic: z.string(), data: topicDocumentSchema }),
  z.object({ type: z.literal('pong') }),
  z.object({
    type: z.literal('error'),
    topic: z.string().optional(),
    code: z.string(),
    message: z.string(),
  }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

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
