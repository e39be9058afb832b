import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from '@fastify/websocket';
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
import type { EventBus } from '../events/bus.js';
import type { PostsService } from '../modules/posts/posts.service.js';
import type { UsersService } from '../modules/users/users.service.js';
import { assertSameOrigin } from './security.js';
import type { Viewer } from './viewer.js';

const maxSubscriptionsPerSocket = 200;
const maxMessageBytes = 16 * 1024;
const pingIntervalMs = 30_000;

interface Subscription {
  /** False until the first snapshot went out; events that arrive earlier are held in `latest`. */
  ready: boolean;
  latest?: TopicDocument;
}

interface Client {
  socket: WebSocket;
  viewer: Viewer | null;
  subscriptions: Map<string, Subscription>;
  alive: boolean;
}

/**
 * One WebSocket per tab, many topics (DESIGN.md "Realtime"). Subscribing sends the whole document, then
 * the whole document again after every change, whichever instance made it.
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
    await app.register(websocket, { options: { maxPayload: maxMessageBytes } });
    const byTopic = new Map<string, Set<Client>>();
    const clients = new Set<Client>();

    const send = (client: Client, message: ServerMessage) => {
      if (client.socket.readyState === client.socket.OPEN)
        client.socket.send(JSON.stringify(message));
    };

    const unsubscribeFromBus = bus.subscribe((event) => {
      const subscribers = byTopic.get(event.topic);
      if (!subscribers) return;
      for (const client of subscribers) {
        const subscription = client.subscriptions.get(event.topic);
        if (!subscription) continue;
        if (subscription.ready) send(client, { type: 'doc', topic: event.topic, data: event.data });
        else subscription.latest = event.data;
      }
    });

    const drop = (client: Client, topic: string) => {
      client.subscriptions.delete(topic);
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

    const subscribe = async (client: Client, topic: string) => {
      if (client.subscriptions.has(topic)) return;
      if (client.subscriptions.size >= maxSubscriptionsPerSocket) {
        send(client, {
          type: 'error',
          topic,
          code: 'too_many_subscriptions',
          message: `A connection can follow at most ${maxSubscriptionsPerSocket} topics.`,
        });
        return;
      }
      // Join first, then read: a change made while the snapshot is read is held, never lost.
      const subscription: Subscription = { ready: false };
      client.subscriptions.set(topic, subscription);
      let subscribers = byTopic.get(topic);
      if (!subscribers) byTopic.set(topic, (subscribers = new Set()));
      subscribers.add(client);
      const snapshot = await loadTopic(topic);
      if (client.subscriptions.get(topic) !== subscription) return;
      subscription.ready = true;
      send(client, {
        type: 'doc',
        topic,
        data: subscription.latest !== undefined ? subscription.latest : snapshot,
      });
      delete subscription.latest;
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
    }, pingIntervalMs);
    heartbeat.unref();

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
      },
      async (socket, request) => {
        const client: Client = { socket, viewer: null, subscriptions: new Map(), alive: true };
        // Buffer messages that arrive while the session is being read.
        const early: Buffer[] = [];
        const onEarly = (data: Buffer) => early.push(data);
        socket.on('message', onEarly);
        clients.add(client);
        socket.on('pong', () => {
          client.alive = true;
        });
        socket.on('close', () => {
          clients.delete(client);
          for (const topic of [...client.subscriptions.keys()]) drop(client, topic);
        });

        try {
          client.viewer = await request.viewer();
        } catch (error) {
          request.log.warn({ err: error }, 'realtime: could not read the session');
        }

        const handle = (data: Buffer) => {
          client.alive = true;
          let message;
          try {
            message = clientMessageSchema.safeParse(JSON.parse(data.toString('utf8')));
          } catch {
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
              subscribe(client, payload.topic).catch((error: unknown) => {
                request.log.error(
                  { err: error, topic: payload.topic },
                  'realtime: subscribe failed',
                );
                drop(client, payload.topic);
                send(client, {
                  type: 'error',
                  topic: payload.topic,
                  code: 'unavailable',
                  message: 'Could not load that topic. Try again.',
                });
              });
              return;
            case 'unsubscribe':
              drop(client, payload.topic);
              return;
            case 'ping':
              send(client, { type: 'pong' });
              return;
          }
        };
        socket.off('message', onEarly);
        socket.on('message', handle);
        for (const data of early) handle(data);
      },
    );

    app.addHook('preClose', (done) => {
      clearInterval(heartbeat);
      unsubscribeFromBus();
      for (const client of clients) {
        client.socket.close(realtimeCloseCodes.goingAway, 'Server restarting');
      }
      done();
    });
  },
  { name: 'realtime', dependencies: ['viewer'] },
);
