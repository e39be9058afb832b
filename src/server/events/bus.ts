import type { TopicDocument } from '../../shared/realtime.js';

/** A change to a document that subscribers of its topic must see (DESIGN.md "Realtime"). */
export interface DocumentEvent {
  topic: string;
  data: TopicDocument;
}

export type EventListener = (event: DocumentEvent) => void;

/**
 * Fans document events out to every instance. In-process by default; Redis pub/sub when REDIS_URL is set,
 * so a write on one instance reaches sockets on all of them.
 */
export interface EventBus {
  publish(event: DocumentEvent): Promise<void>;
  subscribe(listener: EventListener): () => void;
  /** False while events may be missed (Redis unreachable): caches that rely on them must not be trusted. */
  connected(): boolean;
  close(): Promise<void>;
}

/** Delivers events to listeners in this process. */
export class LocalEventBus implements EventBus {
  readonly #listeners = new Set<EventListener>();

  publish(event: DocumentEvent): Promise<void> {
    this.deliver(event);
    return Promise.resolve();
  }

  /** Hands an event to local listeners; a failing listener never stops the others. */
  deliver(event: DocumentEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's own failure is its concern; the realtime hub logs per socket.
      }
    }
  }

  subscribe(listener: EventListener): () => void {
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
}
