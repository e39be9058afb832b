import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from '@fastify/websocket';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { realtimeLimits } from '../../shared/limits.js';
import {
  clientMessageSchema,
  maySubscribe,
  parseTopic,
  realtimeCloseCodes,
  realtimePath,
  type ParsedTopic,
  type ServerMessage,
  type TopicDocument,
  type TopicKind,
} from '../../shared/realtime.js';
import type { TopicKey } from '../../shared/realtime-protocol.js';
import type { Config } from '../config.js';
import { DomainError } from '../errors.js';
import type { EndedSessions, EventBus } from '../events/bus.js';
import type { ModerationService } from '../modules/moderation/moderation.service.js';
import type { NotificationsService } from '../modules/notifications/notifications.service.js';
import type { PostsService } from '../modules/posts/posts.service.js';
import type { RelationshipsService } from '../modules/relationships/relationships.service.js';
import type { UsersService } from '../modules/users/users.service.js';
import { textFrame } from './realtime-frames.js';
import { assertSameOrigin } from './security.js';
import type { Viewer } from './viewer.js';

/**
 * How each kind of topic's snapshot is read: the server half of the topic registry (contract/topics.ts,
 * ADR 0013), kept here so shared code never imports server code. A missing kind does not compile.
 */
export type TopicLoaders = {
  [K in TopicKind]: (key: TopicKey<K>) => Promise<TopicDocument<K>>;
};

/** The loaders of today's topics, from the services that own their documents. */
export function topicLoaders({
  users,
  posts,
  notifications,
  relationships,
  moderation,
}: {
  users: UsersService;
  posts: PostsService;
  notifications: Pick<NotificationsService, 'unreadState'>;
  relationships: Pick<RelationshipsService, 'signal'>;
  moderation: Pick<ModerationService, 'state'>;
}): TopicLoaders {
  return {
    user: (uid) => users.findDocument(uid),
    post: (postId) => posts.findDocument(postId),
    feed: () => posts.feedSnapshot(),
    notifications: (uid) => notifications.unreadState(uid),
    relationships: (uid) => relationships.signal(uid),
    moderation: () => moderation.state(),
  };
}

/** Reads a topic's snapshot with the loader of its own kind. */
function loadSnapshot(loaders: TopicLoaders, topic: ParsedTopic): Promise<TopicDocument> {
  // `topic.key` is of `topic.kind`; TypeScript cannot follow that pairing through the lookup.
  const load = loaders[topic.kind] as (key: ParsedTopic['key']) => Promise<TopicDocument>;
  return load(topic.key);
}

/** Which of `sessionIds` still exist (not ended, not expired). */
export type LiveSessions = (sessionIds: readonly string[]) => Promise<Set<string>>;

interface Subscription {
  topic: ParsedTopic;
  /** False until the first snapshot went out; events that arrive earlier are held in `latest`. */
  ready: boolean;
  /** True while its snapshot is being read (it has left the queue). */
  loading: boolean;
  latest?: TopicDocument;
}

/** A changed topic's reads: `again` when it changed since the read began; the read `stale` when overtaken. */
interface Reread {
  again: boolean;
  read: { stale: boolean };
  done: Promise<void>;
}

interface Client {
  socket: WebSocket;
  /** The TCP connection under `socket`, which frames built once for every socket are written to. */
  connection: Socket;
  admission: Admission;
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
  /** The signed-in viewer; null for a visitor, and from the moment the socket's session ends. */
  viewer: Viewer | null;
  /** The socket, once the upgrade has completed. */
  client?: Client;
  /** The session ended before the socket opened: it is told as soon as it does. */
  endedBeforeOpen: boolean;
}

/** A session end, numbered, kept a while for upgrades whose session lookup overlapped it. */
interface RecentEnd {
  seq: number;
  ended: EndedSessions;
}

/** Session ends remembered for overlapping upgrades; a lookup takes milliseconds, this is thousands. */
const recentEndsKept = 1_000;

const endedFor = (ended: EndedSessions, viewer: Viewer) =>
  ended.uid === viewer.uid &&
  (ended.sessionIds === null || ended.sessionIds.includes(viewer.sessionId));

/** True for a request that asks to switch protocols (it arrives on a socket the HTTP server let go of). */
function isUpgrade(request: FastifyRequest): boolean {
  return (
    request.headers.upgrade !== undefined && /\bupgrade\b/i.test(request.headers.connection ?? '')
  );
}

/** A message's whole WebSocket frame, serialised and framed once however many sockets it goes to. */
function encode(message: ServerMessage): Buffer {
  return textFrame(JSON.stringify(message));
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
 * the whole document again after every change, whichever instance made it. Topics, their documents and
 * who may subscribe come from the registry (ADR 0013). A socket whose session ends carries on signed out,
 * and after a bus outage every followed topic is read afresh. Bounded (DESIGN.md "Bounded by default"):
 * upgrades per IP, sockets per IP and per account, messages and snapshot reads per socket, and the bytes
 * queued for a socket that does not read.
 */
export const realtimePlugin = fp(
  async (
    app: FastifyInstance,
    {
      config,
      bus,
      loaders,
      liveSessions,
    }: { config: Config; bus: EventBus; loaders: TopicLoaders; liveSessions: LiveSessions },
  ) => {
    const byTopic = new Map<string, Set<Client>>();
    const clients = new Set<Client>();
    // Per instance, on purpose: the cap protects this process's memory and descriptors, which other
    // instances do not share. The upgrade rate, which is what a reconnect loop hits, is shared via Redis.
    const socketsByIp = new Map<string, number>();
    const socketsByAccount = new Map<string, number>();
    const admissions = new WeakMap<IncomingMessage, Admission>();
    /** Signed-in admissions by account, so a session end finds its sockets without a scan. */
    const signedIn = new Map<string, Set<Admission>>();
    const recentEnds: RecentEnd[] = [];
    let endSeq = 0;
    /** Topics to read afresh after a bus outage, and the reads in flight (stale once an event overtook one). */
    const refreshQueue = new Set<string>();
    const refreshing = new Map<string, { stale: boolean }>();
    /** Topics being read again because they changed (`ChangedTopic`), one read at a time each. */
    const rereading = new Map<string, Reread>();
    let sessionCheck: { again: boolean } | null = null;

    const count = (counts: Map<string, number>, key: string, delta: number) => {
      const next = (counts.get(key) ?? 0) + delta;
      if (next > 0) counts.set(key, next);
      else counts.delete(key);
    };

    /** Sends a topic's new document to its subscribers; one not yet ready holds it instead. */
    const deliver = (topic: string, data: TopicDocument) => {
      const subscribers = byTopic.get(topic);
      if (!subscribers) return;
      let frame: Buffer | undefined;
      for (const client of subscribers) {
        const subscription = client.subscriptions.get(topic);
        if (!subscription) continue;
        if (subscription.ready) {
          frame ??= encode({ type: 'doc', topic: subscription.topic.name, data });
          sendFrame(client, frame);
        } else subscription.latest = data;
      }
    };

    const index = (admission: Admission, viewer: Viewer) => {
      let held = signedIn.get(viewer.uid);
      if (!held) signedIn.set(viewer.uid, (held = new Set()));
      held.add(admission);
    };
    const unindex = (admission: Admission, viewer: Viewer) => {
      const held = signedIn.get(viewer.uid);
      held?.delete(admission);
      if (held?.size === 0) signedIn.delete(viewer.uid);
    };

    /**
     * The socket's session ended: it carries on as a signed-out visitor's, so public topics stay live in the
     * tab, and every topic it may no longer follow is dropped, with an error the client can act on.
     */
    const signOut = (admission: Admission) => {
      const viewer = admission.viewer;
      if (!viewer) return;
      admission.viewer = null;
      count(socketsByAccount, viewer.uid, -1);
      unindex(admission, viewer);
      if (admission.client) tellEnded(admission.client);
      else admission.endedBeforeOpen = true;
    };
    const tellEnded = (client: Client) => {
      send(client, { type: 'session', state: 'ended' });
      for (const { topic } of [...client.subscriptions.values()]) {
        if (maySubscribe(topic, null)) continue;
        drop(client, topic.name);
        send(client, {
          type: 'error',
          topic: topic.name,
          code: 'unauthenticated',
          message: 'Your session has ended. Sign in again to follow this.',
        });
      }
    };

    /** Whether a session end since `seq` concerns `viewer`; unsure (the log moved on) counts as yes. */
    const endedSince = (seq: number, viewer: Viewer) => {
      const oldest = recentEnds[0];
      if (oldest && oldest.seq > seq + 1) return true;
      return recentEnds.some((end) => end.seq > seq && endedFor(end.ended, viewer));
    };

    const sessionsEnded = (ended: EndedSessions) => {
      endSeq += 1;
      recentEnds.push({ seq: endSeq, ended });
      if (recentEnds.length > recentEndsKept) recentEnds.shift();
      for (const admission of [...(signedIn.get(ended.uid) ?? [])]) {
        if (admission.viewer && endedFor(ended, admission.viewer)) signOut(admission);
      }
    };

    /** Reads queued topics afresh, a few at a time across the instance, until none is left. */
    const pumpRefresh = () => {
      while (refreshing.size < realtimeLimits.refreshConcurrency) {
        let name: string | undefined;
        // A topic whose read is in flight stays queued: that read may predate the latest outage.
        for (const queued of refreshQueue) {
          if (!refreshing.has(queued)) {
            name = queued;
            break;
          }
        }
        if (name === undefined) return;
        refreshQueue.delete(name);
        const topic = byTopic.has(name) ? parseTopic(name) : null;
        if (!topic) continue;
        const read = { stale: false };
        refreshing.set(name, read);
        loadSnapshot(loaders, topic)
          .then(
            (data) => {
              if (!read.stale) deliver(topic.name, data);
            },
            (error: unknown) => {
              app.log.warn({ err: error, topic: topic.name }, 'realtime: refresh failed');
            },
          )
          .finally(() => {
            refreshing.delete(topic.name);
            pumpRefresh();
          });
      }
    };

    /** Ends the sockets whose session ended while this instance could not hear of it. */
    const checkSessions = async () => {
      const bySession = new Map<string, Admission[]>();
      for (const held of signedIn.values()) {
        for (const admission of held) {
          const id = admission.viewer?.sessionId;
          if (id !== undefined) bySession.set(id, [...(bySession.get(id) ?? []), admission]);
        }
      }
      const ids = [...bySession.keys()];
      for (let start = 0; start < ids.length; start += realtimeLimits.sessionCheckBatch) {
        const batch = ids.slice(start, start + realtimeLimits.sessionCheckBatch);
        const live = await liveSessions(batch);
        for (const id of batch) {
          if (live.has(id)) continue;
          for (const admission of bySession.get(id) ?? []) {
            if (admission.viewer?.sessionId === id) signOut(admission);
          }
        }
      }
    };
    const scheduleSessionCheck = () => {
      if (sessionCheck) {
        sessionCheck.again = true;
        return;
      }
      const run = { again: false };
      sessionCheck = run;
      checkSessions()
        .catch((error: unknown) => {
          app.log.warn({ err: error }, 'realtime: could not check sessions after a bus outage');
        })
        .finally(() => {
          sessionCheck = null;
          if (run.again) scheduleSessionCheck();
        });
    };

    /**
     * Reads a changed topic's document and sends it, if anyone here follows the topic. Changes that come
     * during the read make one more read after it, however many they are; a document published meanwhile
     * (newer than the read, perhaps) makes the read's own answer stale.
     */
    const reread = (name: string): Promise<void> => {
      const running = rereading.get(name);
      if (running) {
        running.again = true;
        return running.done;
      }
      const topic = byTopic.has(name) ? parseTopic(name) : null;
      if (!topic) return Promise.resolve();
      const state: Reread = { again: true, read: { stale: false }, done: Promise.resolve() };
      state.done = (async () => {
        while (state.again && byTopic.has(name)) {
          state.again = false;
          const read = { stale: false };
          state.read = read;
          try {
            const data = await loadSnapshot(loaders, topic);
            if (!read.stale) deliver(name, data);
          } catch (error) {
            app.log.warn({ err: error, topic: name }, 'realtime: could not read a changed topic');
          }
        }
        rereading.delete(name);
      })();
      rereading.set(name, state);
      return state.done;
    };

    const unsubscribeFromBus = bus.subscribe({
      document: (event) => {
        const read = refreshing.get(event.topic);
        if (read) read.stale = true;
        const again = rereading.get(event.topic);
        if (again) again.read.stale = true;
        deliver(event.topic, event.data);
      },
      changed: ({ topic }) => reread(topic),
      sessionsEnded,
      // Events of other instances may have been missed: every followed topic is read afresh once, and
      // every signed-in socket's session is checked, so clients catch up without reconnecting.
      resumed: () => {
        for (const topic of byTopic.keys()) refreshQueue.add(topic);
        pumpRefresh();
        scheduleSessionCheck();
      },
    });

    /**
     * Queues a whole frame (`encode`), or drops a socket whose reader has fallen behind. The frame goes
     * straight to the connection: the WebSocket library's own sends write to it the same way, in call
     * order, and with no extension negotiated it never holds a message back. A slow reader is terminated
     * rather than closed: a close frame would wait behind the very bytes it is not reading. The client
     * reconnects with backoff and resubscribes, which sends it the latest documents.
     */
    const sendFrame = (client: Client, frame: Buffer) => {
      const { socket, connection } = client;
      if (socket.readyState !== socket.OPEN) return;
      if (connection.writableLength > realtimeLimits.maxBufferedBytes) {
        socket.terminate();
        return;
      }
      connection.write(frame);
      if (connection.writableLength > realtimeLimits.maxBufferedBytes) socket.terminate();
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

    /** Starts queued snapshot reads while the socket has a free slot: each one is a database read. */
    const pump = (client: Client, request: FastifyRequest) => {
      while (client.loading < realtimeLimits.snapshotConcurrency) {
        const subscription = client.queued.shift();
        if (!subscription) return;
        const topic = subscription.topic.name;
        subscription.loading = true;
        client.loading += 1;
        loadSnapshot(loaders, subscription.topic)
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

    const subscribe = (client: Client, parsed: ParsedTopic, request: FastifyRequest) => {
      const topic = parsed.name;
      if (client.subscriptions.has(topic)) return;
      // Authorised once, here (ADR 0003), by the topic's audience in the registry.
      if (!maySubscribe(parsed, client.admission.viewer)) {
        const someone = client.admission.viewer !== null;
        send(client, {
          type: 'error',
          topic,
          code: someone ? 'forbidden' : 'unauthenticated',
          message: someone ? 'This is not yours to follow.' : 'Sign in to follow this.',
        });
        return;
      }
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
      const subscription: Subscription = { topic: parsed, ready: false, loading: false };
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
      // No per-message compression: `sendFrame` writes frames framed once for every socket (ADR 0036).
      options: { maxPayload: realtimeLimits.messageBytes, perMessageDeflate: false },
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
            const endsBefore = endSeq;
            let viewer: Viewer | null = null;
            try {
              viewer = await request.viewer();
            } catch (error) {
              request.log.warn({ err: error }, 'realtime: could not read the session');
            }
            // The session may have ended while it was being looked up, after its end was announced.
            const endedBeforeOpen = viewer !== null && endedSince(endsBefore, viewer);
            if (endedBeforeOpen) viewer = null;
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
            const admission: Admission = { ip, viewer, endedBeforeOpen };
            count(socketsByIp, ip, 1);
            if (viewer) {
              count(socketsByAccount, viewer.uid, 1);
              index(admission, viewer);
            }
            admissions.set(request.raw, admission);
            request.raw.socket.once('close', () => {
              count(socketsByIp, ip, -1);
              // Read at close: a session that ended meanwhile has already given its account slot back.
              const current = admission.viewer;
              admission.viewer = null;
              if (current) {
                count(socketsByAccount, current.uid, -1);
                unindex(admission, current);
              }
            });
          },
        ],
      },
      (socket, request) => {
        const admission = admissions.get(request.raw) ?? {
          ip: request.ip,
          viewer: null,
          endedBeforeOpen: false,
        };
        const client: Client = {
          socket,
          connection: request.raw.socket,
          admission,
          subscriptions: new Map(),
          queued: [],
          loading: 0,
          alive: true,
          tokens: realtimeLimits.messages.burst,
          refilledAt: performance.now(),
          refused: 0,
        };
        clients.add(client);
        admission.client = client;
        if (admission.endedBeforeOpen) tellEnded(client);
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
            case 'subscribe': {
              // The schema accepted only names the registry knows.
              const topic = parseTopic(payload.topic);
              if (topic) subscribe(client, topic, request);
              return;
            }
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
