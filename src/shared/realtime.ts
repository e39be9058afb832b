import { z } from 'zod';
import { isKnownTopic } from './realtime-protocol.js';
import { feedSignalSchema, postSchema } from './schemas/post.js';
import { userDocumentSchema } from './schemas/user.js';

export {
  feedTopic,
  heartbeatIntervalMs,
  isKnownTopic,
  postTopic,
  postTopicPattern,
  heartbeatTimeoutMs,
  realtimeCloseCodes,
  realtimePath,
  userTopic,
  userTopicPattern,
} from './realtime-protocol.js';

export const topicSchema = z.string().max(200).refine(isKnownTopic, 'Unknown topic.');

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), topic: topicSchema }),
  z.object({ type: z.literal('unsubscribe'), topic: topicSchema }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/**
 * Documents that topics carry: `users/{uid}` a user document, `posts/{id}` a post, `feed` a feed signal;
 * `null` means the document does not exist (or was deleted).
 */
export const topicDocumentSchema = z
  .union([userDocumentSchema, postSchema, feedSignalSchema])
  .nullable();
export type TopicDocument = z.infer<typeof topicDocumentSchema>;

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
