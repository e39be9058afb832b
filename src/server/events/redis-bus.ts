import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DocumentEvent, EventBus, EventListener } from './bus.js';
import { LocalEventBus } from './bus.js';

/** Publishes through Redis pub/sub so that every instance's sockets receive every event. */
export class RedisEventBus implements EventBus {
  readonly #local = new LocalEventBus();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;

  private constructor(url: string, prefix: string, log: Logger) {
    this.#channel = `${prefix}events`;
    this.#publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    this.#subscriber = new Redis(url, { lazyConnect: true });
    for (const client of [this.#publisher, this.#subscriber]) {
      client.on('error', (error: Error) => {
        log.warn({ err: error }, 'redis event bus connection error');
      });
    }
    this.#subscriber.on('message', (channel: string, payload: string) => {
      if (channel !== this.#channel) return;
      try {
        this.#local.deliver(JSON.parse(payload) as DocumentEvent);
      } catch (error) {
        log.warn({ err: error }, 'dropped a malformed event from redis');
      }
    });
  }

  /** Connects both clients and subscribes before resolving, so no event published after start is missed. */
  static async connect(url: string, prefix: string, log: Logger): Promise<RedisEventBus> {
    const bus = new RedisEventBus(url, prefix, log);
    await Promise.all([bus.#publisher.connect(), bus.#subscriber.connect()]);
    await bus.#subscriber.subscribe(bus.#channel);
    return bus;
  }

  async publish(event: DocumentEvent): Promise<void> {
    await this.#publisher.publish(this.#channel, JSON.stringify(event));
  }

  subscribe(listener: EventListener): () => void {
    return this.#local.subscribe(listener);
  }

  async close(): Promise<void> {
    await this.#local.close();
    this.#subscriber.disconnect();
    await this.#publisher.quit().catch(() => undefined);
  }
}
