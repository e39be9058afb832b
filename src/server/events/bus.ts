import type { TopicDocument } from '../../shared/contract/topics.js';
import { parseTopic, type TopicKind, type TopicName } from '../../shared/realtime-protocol.js';

/**
 * A change to a document that subscribers of its topic must see (DESIGN.md "Realtime"). A topic's kind
 * fixes its document's type, so `{ topic: postTopic(id), data: someUser }` does not compile.
 */
export type DocumentEvent = {
  [K in TopicKind]: { topic: TopicName<K>; data: TopicDocument<K> };
}[TopicKind];

/**
 * Sessions that ended (sign-out, revocation, password change or reset, account deletion): every instance
 * stops trusting them and tells the sockets opened with them (ADR 0013). Internal: no client can subscribe
 * to it.
 */
export interface EndedSessions {
  uid: string;
  /** The sessions that ended; null when every session of the account did. */
  sessionIds: readonly string[] | null;
}

/**
 * A topic whose document changed, sent without it: only instances with sockets on the topic read it, once
 * for any number of changes that come while they do. For documents that cost a read to make and that few
 * are watching at the moment they change (an account's unread notifications).
 */
export interface ChangedTopic {
  topic: string;
}

/** What travels between instances (Redis, the control socket): one line of JSON each. */
export type BusMessage =
  | ({ kind: 'document' } & DocumentEvent)
  | ({ kind: 'changed' } & ChangedTopic)
  | ({ kind: 'sessions-ended' } & EndedSessions);

/** What a bus subscriber hears; each part is optional. */
export interface BusListener {
  document?(event: DocumentEvent): void;
  /** Settles once the listener has read and sent the topic's new document, where it had to. */
  changed?(change: ChangedTopic): Promise<void>;
  sessionsEnded?(ended: EndedSessions): void;
  /**
   * The bus is back after a time in which other instances' events may have been missed (Redis was
   * unreachable): whatever was derived from them must be read afresh.
   */
  resumed?(): void;
}

/**
 * Fans events out to every instance. In-process by default; Redis pub/sub when REDIS_URL is set, so a write
 * on one instance reaches sockets on all of them.
 */
export interface EventBus {
  publish(event: DocumentEvent): Promise<void>;
  /**
   * Like `publish`, for a topic whose document is not at hand. On this instance it settles once the
   * sockets here have the new document; other instances read theirs as the message reaches them.
   */
  publishChanged(change: ChangedTopic): Promise<void>;
  publishSessionsEnded(ended: EndedSessions): Promise<void>;
  subscribe(listener: BusListener): () => void;
  /** False while events may be missed (Redis unreachable): caches that rely on them must not be trusted. */
  connected(): boolean;
  close(): Promise<void>;
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * A bus message read from another process, or null when it is not one. Only its envelope is checked: the
 * sender is an instance of this app or its operator CLI, behind Redis or an owner-only socket.
 */
export function readBusMessage(json: unknown): BusMessage | null {
  if (typeof json !== 'object' || json === null) return null;
  const message = json as Record<string, unknown>;
  switch (message.kind) {
    case 'document':
      return typeof message.topic === 'string' && parseTopic(message.topic) && 'data' in message
        ? (message as BusMessage)
        : null;
    case 'changed':
      return typeof message.topic === 'string' && parseTopic(message.topic)
        ? (message as BusMessage)
        : null;
    case 'sessions-ended':
      return typeof message.uid === 'string' &&
        (message.sessionIds === null || isStringArray(message.sessionIds))
        ? (message as BusMessage)
        : null;
    default:
      return null;
  }
}

/** Delivers events to listeners in this process. */
export class LocalEventBus implements EventBus {
  readonly #listeners = new Set<BusListener>();

  publish(event: DocumentEvent): Promise<void> {
    return this.deliver({ kind: 'document', ...event });
  }

  publishChanged(change: ChangedTopic): Promise<void> {
    return this.deliver({ kind: 'changed', ...change });
  }

  publishSessionsEnded(ended: EndedSessions): Promise<void> {
    return this.deliver({ kind: 'sessions-ended', ...ended });
  }

  /**
   * Hands a message to local listeners; a failing listener never stops the others. Settles once they have
   * acted on it (only a change has any reading to do), and never rejects.
   */
  deliver(message: BusMessage): Promise<void> {
    const reads: Promise<void>[] = [];
    this.#each((listener) => {
      switch (message.kind) {
        case 'document': {
          const { kind: _kind, ...event } = message;
          listener.document?.(event);
          return;
        }
        case 'changed': {
          const read = listener.changed?.({ topic: message.topic });
          if (read) reads.push(read.catch(() => undefined));
          return;
        }
        case 'sessions-ended':
          listener.sessionsEnded?.({ uid: message.uid, sessionIds: message.sessionIds });
          return;
      }
    });
    return reads.length === 0 ? Promise.resolve() : Promise.all(reads).then(() => undefined);
  }

  /** Tells local listeners that events may have been missed and the bus is back. */
  resumed(): void {
    this.#each((listener) => listener.resumed?.());
  }

  subscribe(listener: BusListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  connected(): boolean {
    return true;
  }

  close(): Promise<void> {
    this.#listeners.clear();
    return Promise.resolve();
  }

  #each(call: (listener: BusListener) => void): void {
    for (const listener of this.#listeners) {
      try {
        call(listener);
      } catch {
        // A listener's own failure is its concern; the realtime hub logs per socket.
      }
    }
  }
}
