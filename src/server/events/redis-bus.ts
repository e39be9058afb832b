import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import type { DocumentEvent, EventBus, EventListener } from './bus.js';
import { LocalEventBus } from './bus.js';

/** Time bounds of every Redis connection (DESIGN.md "Bounded by default"). */
export const redisTimeouts = {
  /** A connection attempt that has not completed by then is abandoned and retried. */
  connectMs: 2_000,
  /** A command unanswered by then fails; callers fall back rather than hold a request. */
  commandMs: 500,
  /** Longest pause between reconnection attempts: Redis is found again within this once it is back. */
  maxReconnectDelayMs: 1_000,
  /** How long start-up waits for the event subscription before going on without it. */
  startMs: 2_000,
} as const;

/**
 * Options for a Redis client on a request's path: a command fails at once while Redis is unreachable
 * (no offline queue holding requests) and within `commandMs` when it stops answering, while the client
 * keeps reconnecting in the background.
 */
export const failFastRedisOptions: RedisOptions = {
  enableOfflineQueue: false,
  commandTimeout: redisTimeouts.commandMs,
  connectTimeout: redisTimeouts.connectMs,
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt: number) =>
    Math.min(50 * 2 ** attempt, redisTimeouts.maxReconnectDelayMs),
};

/** Publishes through Redis pub/sub so that every instance's sockets receive every event. */
export class RedisEventBus implements EventBus {
  readonly #local = new LocalEventBus();
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #log: Logger;
  /** Set while publishing fails, so an outage is logged once rather than once per write. */
  #publishFailing = false;

  private constructor(url: string, prefix: string, log: Logger) {
    this.#channel = `${prefix}events`;
    this.#log = log;
    this.#publisher = new Redis(url, { ...failFastRedisOptions, lazyConnect: true });
    // The subscription is not on a request's path: its one command may wait for Redis as long as it takes,
    // and ioredis subscribes again after every reconnection.
    this.#subscriber = new Redis(url, {
      ...failFastRedisOptions,
      lazyConnect: true,
      enableOfflineQueue: true,
      commandTimeout: undefined,
      maxRetriesPerRequest: null,
    });
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

  /**
   * Connects both clients and subscribes before resolving, so no event published after start is missed.
   * When Redis cannot be reached it resolves anyway after `redisTimeouts.startMs`: the instance serves, and
   * the subscription is made as soon as Redis answers.
   */
  static async connect(url: string, prefix: string, log: Logger): Promise<RedisEventBus> {
    const bus = new RedisEventBus(url, prefix, log);
    bus.#publisher.connect().catch(() => undefined);
    bus.#subscriber.connect().catch(() => undefined);
    const subscribed = bus.#subscriber.subscribe(bus.#channel).then(
      () => true,
      () => false,
    );
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), redisTimeouts.startMs);
    });
    const ok = await Promise.race([subscribed, gaveUp]);
    clearTimeout(timer);
    if (!ok) log.warn('redis is not reachable: live updates stay on this instance until it is');
    return bus;
  }

  /** Never rejects: the write behind the event is already committed, and must not turn into an error. */
  async publish(event: DocumentEvent): Promise<void> {
    try {
      await this.#publisher.publish(this.#channel, JSON.stringify(event));
      this.#publishFailing = false;
    } catch (error) {
      if (!this.#publishFailing) {
        this.#log.warn(
          { err: error },
          'could not publish to redis: events reach this instance only',
        );
      }
      this.#publishFailing = true;
      // This instance's own sockets still see the change. Documents are whole, so in the rare case a timed-out
      // publish did reach Redis, the second delivery of the same document changes nothing.
      this.#local.deliver(event);
    }
  }

  subscribe(listener: EventListener): () => void {
    return this.#local.subscribe(listener);
  }

  connected(): boolean {
    return this.#publisher.status === 'ready' && this.#subscriber.status === 'ready';
  }

  async close(): Promise<void> {
    await this.#local.close();
    this.#subscriber.disconnect();
    await this.#publisher.quit().catch(() => undefined);
    this.#publisher.disconnect();
  }
}
