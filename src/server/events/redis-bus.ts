import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import {
  LocalEventBus,
  readBusMessage,
  type BusListener,
  type BusMessage,
  type ChangedTopic,
  type DocumentEvent,
  type EndedSessions,
  type EventBus,
} from './bus.js';

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
  /** Set once `connect` has returned: a subscription made after that may follow missed events. */
  #started = false;

  private constructor(url: string, prefix: string, log: Logger) {
    this.#channel = `${prefix}events`;
    this.#log = log;
    this.#publisher = new Redis(url, { ...failFastRedisOptions, lazyConnect: true });
    // The subscription is not on a request's path: its one command may wait for Redis as long as it takes.
    // After every reconnection `#resubscribe` subscribes again. ioredis's own resubscription is off: it
    // leaves its SUBSCRIBE's promise unhandled, so a connection that drops (or an instance that shuts
    // down) before Redis answers it would end the process with an unhandled rejection.
    this.#subscriber = new Redis(url, {
      ...failFastRedisOptions,
      lazyConnect: true,
      enableOfflineQueue: true,
      commandTimeout: undefined,
      maxRetriesPerRequest: null,
      autoResubscribe: false,
    });
    for (const client of [this.#publisher, this.#subscriber]) {
      client.on('error', (error: Error) => {
        log.warn({ err: error }, 'redis event bus connection error');
      });
    }
    this.#subscriber.on('message', (channel: string, payload: string) => {
      if (channel !== this.#channel) return;
      let message: BusMessage | null = null;
      try {
        message = readBusMessage(JSON.parse(payload));
      } catch {
        message = null;
      }
      if (message) void this.#local.deliver(message);
      else log.warn('dropped a malformed event from redis');
    });
    this.#subscriber.on('ready', () => {
      if (this.#started) this.#resubscribe();
    });
  }

  /**
   * After Redis comes back (or first answers after a start without it), subscribes again and then tells
   * listeners that events may have been missed. ioredis resubscribes on its own too, but only a reply to our
   * own SUBSCRIBE says when events flow again: what listeners read afresh from then on cannot miss a change.
   */
  #resubscribe(): void {
    this.#subscriber.subscribe(this.#channel).then(
      () => {
        this.#log.info('redis is back: live updates reach every instance again');
        this.#local.resumed();
      },
      (error: unknown) => {
        // The connection dropped again; the next 'ready' tries once more.
        this.#log.warn({ err: error }, 'could not subscribe to redis events');
      },
    );
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
    bus.#started = true;
    return bus;
  }

  /** Never rejects: the write behind the event is already committed, and must not turn into an error. */
  publish(event: DocumentEvent): Promise<void> {
    return this.#send({ kind: 'document', ...event });
  }

  /** Never rejects, like `publish`; this instance's sockets hear of it as the others do, through Redis. */
  publishChanged(change: ChangedTopic): Promise<void> {
    return this.#send({ kind: 'changed', ...change });
  }

  /** Never rejects, like `publish`; instances that miss it check their sockets' sessions when Redis is back. */
  publishSessionsEnded(ended: EndedSessions): Promise<void> {
    return this.#send({ kind: 'sessions-ended', ...ended });
  }

  async #send(message: BusMessage): Promise<void> {
    try {
      await this.#publisher.publish(this.#channel, JSON.stringify(message));
      this.#publishFailing = false;
    } catch (error) {
      if (!this.#publishFailing) {
        this.#log.warn(
          { err: error },
          'could not publish to redis: events reach this instance only',
        );
      }
      this.#publishFailing = true;
      // This instance's own sockets still see the change. Documents are whole and ended sessions stay
      // ended, so in the rare case a timed-out publish did reach Redis, the second delivery changes nothing.
      await this.#local.deliver(message);
    }
  }

  subscribe(listener: BusListener): () => void {
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
