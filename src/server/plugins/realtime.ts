import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from '@fastify/websocket';
import type { IncomingMessage } from 'node:http';
import { realtimeLimits } from '../../shared/limits.js';
import {
  clientMessageSchema,
  feedTopic,
  postTopicPattern,
  realtimeCloseCodes,
  realtimePath,
  type ServerMessage,
  type TopicDocument,
  userTopicPattern,
} from '../../shared/realtime.js';
import type { Config } from '../config.js';
import { DomainError } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import type { PostsService } from '../modules/posts/posts.service.js';
import type { UsersService } from '../modules/users/users.service.js';
import { assertSameOrigin } from './security.js';
import type { Viewer } from './viewer.js';

interface Subscription {
  topic: string;
  /** False until the first snapshot went out; events that arrive earlier are held in `latest`. */
  ready: boolean;
  /** True while its snapshot is being read (it has left the queue). */
  loading: boolean;
  latest?: TopicDocument;
}

interface Client {
  socket: WebSocket;
  viewer: Viewer | null;
  subscriptions: Map<string, Subscription>;
  /** Subscriptions waiting for a snapshot read slot, oldest first. */
  queued: Subscription[];
  /** Snapshot reads in flight. */
  loading: number;
  alive: boolean;
  /** Token bucket of client messages. */
  tokens: number;
  refilledAt: number;
  refused: number;
}

/** Who an admitted upgrade belongs to, counted until its TCP connection closes. */
interface Admission {
  ip: string;
  viewer: Viewer | null;
}

/** True for a request that asks to switch protocols (it arrives on a socket the HTTP server let go of). */
function isUpgrade(request: FastifyRequest): boolean {
  return (
    request.headers.upgrade !== undefined && /\bupgrade\b/i.test(request.headers.connection ?? '')
  );
}

/** A JSON text frame, serialised once however many sockets it goes to. */
function encode(message: ServerMessage): Buffer {
  return Buffer.from(JSON.stringify(message), 'utf8');
}

const tooManySockets = (who: string) =>
  new DomainError(
    429,
    'rate_limited',
    `Too many live connections from ${who}. Close a tab and try again.`,
    undefined,
    { 'retry-after': String(Math.ceil(realtimeLimits.upgrades.windowMs / 1000)) },
  );

/**
 * One WebSocket per tab, many topics (DESIGN.md "Realtime"). Subscribing sends the whole document, then
 * the whole document again after every change, whichever instance made it. Bounded (DESIGN.md "Bounded by
 * default"): upgrades per IP, sockets per IP and per account, messages and snapshot reads per socket, and
 * the bytes queued for a socket that does not read.
 */
export const realtimePlugin = fp(
  async (
    app: FastifyInstance,
    {
      config,
      bus,
      users,
      posts,
    }: { config: Config; bus: EventBus; users: UsersService; posts: PostsService },
  ) => {
    const byTopic = new Map<string, Set<Client>>();
    const clients = new Set<Client>();
    // Per instance, on purpose: the cap protects this process's memory and descriptors, which other
    // instances do not share. The upgrade rate, which is what a reconnect loop hits, is shared via Redis.
    const socketsByIp = new Map<string, number>();
    const socketsByAccount = new Map<string, number>();
    const admissions = new WeakMap<IncomingMessage, Admission>();

    const count = (counts: Map<string, number>, key: string, delta: number) => {
      const next = (counts.get(key) ?? 0) + delta;
      if (next > 0) counts.set(key, next);
      else counts.delete(key);
    };

    const unsubscribeFromBus = bus.subscribe((event) => {
      const subscribers = byTopic.get(event.topic);
      if (!subscribers) return;
      let frame: Buffer | undefined;
      for (const client of subscribers) {
        const subscription = client.subscriptions.get(event.topic);
        if (!subscription) continue;
        if (subscription.ready) {
          frame ??= encode({ type: 'doc', topic: event.topic, data: event.data });
          sendFrame(client, frame);
        } else subscription.latest = event.data;
      }
    });

    /**
     * Queues a frame, or drops a socket whose reader has fallen behind. It is terminated rather than
     * closed: a close frame would wait behind the very bytes it is not reading. The client reconnects
     * with backoff and resubscribes, which sends it the latest documents.
     */
    const sendFrame = (client: Client, frame: Buffer) => {
      const { socket } = client;
      if (socket.readyState !== socket.OPEN) return;
      if (socket.bufferedAmount > realtimeLimits.maxBufferedBytes) {
        socket.terminate();
        return;
      }
      socket.send(frame, { binary: false });
      if (socket.bufferedAmount > realtimeLimits.maxBufferedBytes) socket.terminate();
    };
    const send = (client: Client, message: ServerMessage) => sendFrame(client, encode(message));

    const drop = (client: Client, topic: string) => {
      const subscription = client.subscriptions.get(topic);
      if (!subscription) return;
      client.subscriptions.delete(topic);
      if (!subscription.ready && !subscription.loading) {
        const index = client.queued.indexOf(subscription);
        if (index >= 0) client.queued.splice(index, 1);
      }
      const subscribers = byTopic.get(topic);
      subscribers?.delete(client);
      if (subscribers?.size === 0) byTopic.delete(topic);
    };

    /** Topics are public documents today; later topics (notifications) check `client.viewer` here. */
    const loadTopic = async (topic: string): Promise<TopicDocument> => {
      if (topic === feedTopic) return posts.feedSnapshot();
      const postId = postTopicPattern.exec(topic)?.[1];
      if (postId) return posts.findDocument(postId);
      const uid = userTopicPattern.exec(topic)?.[1];
      return uid ? users.findDocument(uid) : null;
    };

    /** Starts queued snapshot reads while the socket has a free slot: each one is a database read. */
    const pump = (client: Client, request: FastifyRequest) => {
      while (client.loading < realtimeLimits.snapshotConcurrency) {
        const subscription = client.queued.shift();
        if (!subscription) return;
        const { topic } = subscription;
        subscription.loading = true;
        client.loading += 1;
        loadTopic(topic)
          .then(
            (snapshot) => {
              if (client.subscriptions.get(topic) !== subscription) return;
              subscription.ready = true;
              send(client, {
                type: 'doc',
                topic,
                data: subscription.latest !== undefined ? subscription.latest : snapshot,
              });
              delete subscription.latest;
            },
            (error: unknown) => {
              request.log.error({ err: error, topic }, 'realtime: subscribe failed');
              if (client.subscriptions.get(topic) !== subscription) return;
              drop(client, topic);
              send(client, {
                type: 'error',
                topic,
                code: 'unavailable',
                message: 'Could not load that topic. Try again.',
              });
            },
          )
          .finally(() => {
            client.loading -= 1;
            if (clients.has(client)) pump(client, request);
          });
      }
    };

    const subscribe = (client: Client, topic: string, request: FastifyRequest) => {
      if (client.subscriptions.has(topic)) return;
      if (client.subscriptions.size >= realtimeLimits.subscriptionsPerSocket) {
        send(client, {
          type: 'error',
          topic,
          code: 'too_many_subscriptions',
          message: `A connection can follow at most ${realtimeLimits.subscriptionsPerSocket} topics.`,
        });
        return;
      }
      // Join first, then read: a change made while the snapshot is read is held, never lost.
      const subscription: Subscription = { topic, ready: false, loading: false };
      client.subscriptions.set(topic, subscription);
      let subscribers = byTopic.get(topic);
      if (!subscribers) byTopic.set(topic, (subscribers = new Set()));
      subscribers.add(client);
      client.queued.push(subscription);
      pump(client, request);
    };

    /** Takes one token from the socket's bucket, refilled continuously up to the burst. */
    const allowMessage = (client: Client): boolean => {
      const now = performance.now();
      const { burst, perSecond } = realtimeLimits.messages;
      client.tokens = Math.min(
        burst,
        client.tokens + ((now - client.refilledAt) / 1000) * perSecond,
      );
      client.refilledAt = now;
      if (client.tokens < 1) return false;
      client.tokens -= 1;
      return true;
    };

    const heartbeat = setInterval(() => {
      for (const client of clients) {
        if (!client.alive) {
          client.socket.terminate();
          continue;
        }
        client.alive = false;
        client.socket.ping();
      }
    }, realtimeLimits.pingIntervalMs);
    heartbeat.unref();

    /**
     * Shutdown: every socket is told it is going away; one that does not finish the closing handshake
     * within the grace is cut, so a client that never reads cannot hold the process open.
     */
    const closeAll = async () => {
      clearInterval(heartbeat);
      unsubscribeFromBus();
      // The websocket plugin's own preClose, which this replaces, stops taking upgrades here; an upgrade
      // let in now would be answered 503 on a socket nothing closes.
      app.server.removeAllListeners('upgrade');
      const closed = [...clients].map(
        ({ socket }) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === socket.CLOSED) resolve();
            else socket.once('close', () => resolve());
          }),
      );
      for (const { socket } of clients)
        socket.close(realtimeCloseCodes.goingAway, 'Server restarting');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(closed),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, realtimeLimits.closeGraceMs);
        }),
      ]);
      clearTimeout(timer);
      for (const { socket } of clients) socket.terminate();
    };

    await app.register(websocket, {
      options: { maxPayload: realtimeLimits.messageBytes },
      preClose: closeAll,
    });

    // A refused upgrade (403, 429, 404…) is answered and its connection ended. The HTTP server let go of
    // this socket when it saw the upgrade, so nothing else would close it: a proxy would send its next
    // request down it and hang, and shutdown would wait for it.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (isUpgrade(request)) reply.header('connection', 'close');
      done(null, payload);
    });
    app.addHook('onResponse', (request, _reply, done) => {
      const socket = request.raw.socket;
      if (isUpgrade(request) && !socket.destroyed) socket.end(() => socket.destroy());
      done();
    });

    const upgradeRate = app.limit({ name: 'realtime', ...realtimeLimits.upgrades });

    app.get(
      realtimePath,
      {
        websocket: true,
        onRequest: (request, _reply, done) => {
          try {
            assertSameOrigin(request, config);
            done();
          } catch (error) {
            done(error as Error);
          }
        },
        preHandler: [
          upgradeRate,
          async (request) => {
            let viewer: Viewer | null = null;
            try {
              viewer = await request.viewer();
            } catch (error) {
              request.log.warn({ err: error }, 'realtime: could not read the session');
            }
            const { ip } = request;
            if ((socketsByIp.get(ip) ?? 0) >= realtimeLimits.socketsPerIp) {
              throw tooManySockets('this address');
            }
            if (
              viewer &&
              (socketsByAccount.get(viewer.uid) ?? 0) >= realtimeLimits.socketsPerAccount
            ) {
              throw tooManySockets('this account');
            }
            // Counted from here, not from the handler, so upgrades racing each other cannot all pass.
            count(socketsByIp, ip, 1);
            if (viewer) count(socketsByAccount, viewer.uid, 1);
            admissions.set(request.raw, { ip, viewer });
            request.raw.socket.once('close', () => {
              count(socketsByIp, ip, -1);
              if (viewer) count(socketsByAccount, viewer.uid, -1);
            });
          },
        ],
      },
      (socket, request) => {
        const admission = admissions.get(request.raw);
        const client: Client = {
          socket,
          viewer: admission?.viewer ?? null,
          subscriptions: new Map(),
          queued: [],
          loading: 0,
          alive: true,
          tokens: realtimeLimits.messages.burst,
          refilledAt: performance.now(),
          refused: 0,
        };
        clients.add(client);
        socket.on('pong', () => {
          client.alive = true;
        });
        socket.on('close', () => {
          clients.delete(client);
          client.queued.length = 0;
          for (const topic of [...client.subscriptions.keys()]) drop(client, topic);
        });

        socket.on('message', (data: Buffer) => {
          client.alive = true;
          // The bucket is checked before the message is even parsed: a refused one costs nothing more.
          if (!allowMessage(client)) {
            client.refused += 1;
            if (client.refused > realtimeLimits.maxRefusedMessages) {
              // It ignores the errors: a client of ours never gets here, so it need not come back.
              socket.close(realtimeCloseCodes.policy, 'Too many messages');
              return;
            }
            send(client, {
              type: 'error',
              code: 'rate_limited',
              message: 'Too many messages on this connection. Slow down.',
            });
            return;
          }
          let message;
          try {
            message = clientMessageSchema.safeParse(JSON.parse(data.toString('utf8')));
          } catch {
            message = undefined;
          }
          if (!message) {
            send(client, { type: 'error', code: 'bad_message', message: 'Messages must be JSON.' });
            return;
          }
          if (!message.success) {
            send(client, {
              type: 'error',
              code: 'bad_message',
              message: message.error.issues[0]?.message ?? 'Unknown message.',
            });
            return;
          }
          const payload = message.data;
          switch (payload.type) {
            case 'subscribe':
              subscribe(client, payload.topic, request);
              return;
            case 'unsubscribe':
              drop(client, payload.topic);
              return;
            case 'ping':
              send(client, { type: 'pong' });
              return;
          }
        });
      },
    );
  },
  { name: 'realtime', dependencies: ['viewer', 'rate-limit'] },
);
