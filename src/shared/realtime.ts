import { z } from 'zod';
import { topics, type TopicDocument } from './contract/topics.js';
import { parseTopic, type TopicName } from './realtime-protocol.js';

export {
  feedTopic,
  heartbeatIntervalMs,
  heartbeatTimeoutMs,
  parseTopic,
  postTopic,
  realtimeCloseCodes,
  realtimePath,
  topicName,
  userTopic,
  type ParsedTopic,
  type TopicKind,
  type TopicName,
} from './realtime-protocol.js';
export { maySubscribe, topics, type TopicDocument } from './contract/topics.js';

/** The name of a topic in the registry (contract/topics.ts); anything else is refused. */
export const topicSchema = z
  .string()
  .max(200)
  .refine((name) => parseTopic(name) !== null, 'Unknown topic.')
  .transform((name) => name as TopicName);

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), topic: topicSchema }),
  z.object({ type: z.literal('unsubscribe'), topic: topicSchema }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** The whole document of a topic: sent once after subscribe, then after every change. */
export interface DocMessage {
  type: 'doc';
  topic: TopicName;
  /** Of the type its topic's kind carries (contract/topics.ts), checked when a message is parsed. */
  data: TopicDocument;
}

/**
 * A document message whose data matches its own topic's schema; its type comes from the topic, never from
 * the document's shape.
 */
const docMessageSchema = z
  .object({ type: z.literal('doc'), topic: topicSchema, data: z.unknown() })
  .transform((message, context): DocMessage => {
    const topic = parseTopic(message.topic);
    const parsed = topic ? topics[topic.kind].document.safeParse(message.data) : undefined;
    if (!parsed?.success) {
      context.addIssue({
        code: 'custom',
        path: ['data'],
        message: `Not a document of ${message.topic}.`,
      });
      return z.NEVER;
    }
    return { type: 'doc', topic: message.topic, data: parsed.data };
  });

export const serverMessageSchema = z.union([
  docMessageSchema,
  z.object({ type: z.literal('pong') }),
  z.object({
    type: z.literal('error'),
    topic: z.string().optional(),
    code: z.string(),
    message: z.string(),
  }),
  /**
   * The session this socket was opened with has ended (sign-out, revocation, password change, deletion).
   * The socket goes on as a signed-out visitor's: public topics stay live, others are dropped (ADR 0013).
   */
  z.object({ type: z.literal('session'), state: z.literal('ended') }),
]);
export type ServerMessage = z.output<typeof serverMessageSchema>;
