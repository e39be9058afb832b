/**
 * The realtime protocol as the web app reads it, without zod: what `serverMessageSchema`
 * (@shared/realtime.js) accepts, written as plain checks, with each document checked against its own
 * topic's shape. In the web build `topics` is generated from the contract (scripts/web-contract.ts, ADR
 * 0032), each document a `wireCheck` of the JSON Schema zod writes for it. `realtime-messages.test.ts`
 * holds this to zod's parse, message by message.
 */
import { topics } from '@shared/contract/topics.js';
import type { ServerMessage } from '@shared/realtime.js';
import { parseTopic, type TopicName } from '@shared/realtime-protocol.js';

export {
  heartbeatIntervalMs,
  heartbeatTimeoutMs,
  realtimeCloseCodes,
  realtimePath,
} from '@shared/realtime-protocol.js';

/** The longest topic name the protocol accepts (`topicSchema`). */
const topicMaxLength = 200;

type Result = { success: true; data: ServerMessage } | { success: false };

const refused: Result = { success: false };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readDoc(message: Record<string, unknown>): Result {
  const { topic: name, data } = message;
  if (typeof name !== 'string' || name.length > topicMaxLength) return refused;
  const topic = parseTopic(name);
  // `data` is `z.unknown()` in the message: it may be absent, and is then undefined for its topic's check.
  if (!topic) return refused;
  const parsed = topics[topic.kind].document.safeParse(data);
  if (!parsed.success) return refused;
  return {
    success: true,
    data: { type: 'doc', topic: name as TopicName, data: parsed.data },
  };
}

/** Reads one message from the server: the message with undeclared fields dropped, or a refusal. */
export function readServerMessage(value: unknown): Result {
  if (!isObject(value)) return refused;
  switch (value.type) {
    case 'doc':
      return readDoc(value);
    case 'pong':
      return { success: true, data: { type: 'pong' } };
    case 'error': {
      const { topic, code, message } = value;
      if (typeof code !== 'string' || typeof message !== 'string') return refused;
      if (topic !== undefined && typeof topic !== 'string') return refused;
      return {
        success: true,
        data: { type: 'error', ...(topic === undefined ? {} : { topic }), code, message },
      };
    }
    case 'session':
      return value.state === 'ended'
        ? { success: true, data: { type: 'session', state: 'ended' } }
        : refused;
    default:
      return refused;
  }
}

/** `serverMessageSchema` as the realtime client calls it. */
export const serverMessageSchema = { safeParse: readServerMessage };
