import type { TopicDocument } from '@shared/contract/topics.js';
import type { ServerMessage } from '@shared/realtime.js';
import type { TopicKind, TopicName } from '@shared/realtime-protocol.js';
import { whenPageSettled } from './page-settled.js';

/**
 * The parts of the protocol the client needs (./realtime-messages.js, which reads messages as
 * @shared/realtime.js does, without zod). It is imported lazily, on the first subscription: its
 * documents' shapes have no place in the entry chunk of every page.
 */
export type RealtimeProtocol = Pick<
  typeof import('./realtime-messages.js'),
  | 'serverMessageSchema'
  | 'realtimePath'
  | 'heartbeatIntervalMs'
  | 'heartbeatTimeoutMs'
  | 'realtimeCloseCodes'
>;

/**
 * The latest document of a topic; a new object on every change so React can compare by reference. Its
 * type is the one its topic's kind carries (@shared/contract/topics.js), never guessed from its shape:
 * every frame is checked against its own topic's schema before it gets here.
 */
export interface TopicSnapshot<K extends TopicKind = TopicKind> {
  readonly data: TopicDocument<K>;
}

export interface SubscribeOptions<K extends TopicKind> {
  /** Reads the document over HTTP when the socket cannot deliver a first snapshot in time. */
  fetchSnapshot?: () => Promise<TopicDocument<K>>;
  /**
   * The document as an answer already in hand carried it (the session carries its own account's user
   * document): the first snapshot when the topic has none yet, so a screen need not wait for the socket.
   * The socket's copies replace it as they come, and a snapshot the topic already holds is never replaced
   * by it, since a snapshot the socket delivered is at least as fresh (ADR 0035).
   */
  initial?: TopicDocument<K>;
}

/** The socket as the client uses it, so tests can drive a fake one. */
export interface RealtimeSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface SocketHandlers {
  onOpen(): void;
  onMessage(data: string): void;
  onClose(code: number): void;
}

export type SocketFactory = (url: string, handlers: SocketHandlers) => RealtimeSocket;

export interface RealtimeClientOptions {
  createSocket?: SocketFactory;
  loadProtocol?: () => Promise<RealtimeProtocol>;
  /** Absolute ws(s):// URL of the endpoint, from the page's own origin by default. */
  url?: (path: string) => string;
  random?: () => number;
  /** How long a subscription may wait for the socket before the HTTP snapshot is fetched. */
  fallbackDelayMs?: number;
  /** How long an unused topic stays subscribed, so a page change does not unsubscribe and resubscribe. */
  lingerMs?: number;
}

export const reconnectBaseDelayMs = 500;
export const reconnectMaxDelayMs = 30_000;
export const snapshotFallbackDelayMs = 3_000;

/**
 * Exponential backoff with "equal jitter": half of the step is fixed, half random, so tabs that lost
 * the same server do not all come back in the same millisecond. Capped at ~30 s.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(reconnectMaxDelayMs, reconnectBaseDelayMs * 2 ** Math.max(0, attempt));
  return Math.round(step / 2 + random() * (step / 2));
}

/** Parses one frame; anything that is not valid JSON or not in the contract is dropped (null). */
export function parseServerMessage(
  raw: string,
  schema: RealtimeProtocol['serverMessageSchema'],
): ServerMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const result = schema.safeParse(json);
  return result.success ? result.data : null;
}

/** Endpoint URL on the page's own origin (the socket is authenticated by the session cookie). */
export function sameOriginSocketUrl(path: string): string {
  const { protocol, host } = globalThis.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${path}`;
}

const browserSocket: SocketFactory = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.addEventListener('open', () => {
    handlers.onOpen();
  });
  socket.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (typeof event.data === 'string') handlers.onMessage(event.data);
  });
  socket.addEventListener('close', (event) => {
    handlers.onClose(event.code);
  });
  return socket;
};

interface TopicEntry {
  listeners: Set<() => void>;
  snapshot: TopicSnapshot | undefined;
  fetchSnapshot: (() => Promise<TopicDocument>) | undefined;
  fallbackTimer: ReturnType<typeof setTimeout> | null;
  fallbackAttempt: number;
  fallbackInFlight: boolean;
  lingerTimer: ReturnType<typeof setTimeout> | null;
}

type ConnectionState = 'idle' | 'connecting' | 'open' | 'waiting' | 'stopped';

/**
 * One WebSocket per tab carrying many topic subscriptions (DESIGN.md "Realtime"): ref-counted per
 * topic, resubscribed after every reconnect, kept alive by an app-level ping, and backed by an HTTP
 * snapshot so a blocked socket never leaves a screen loading forever.
 */
export class RealtimeClient {
  private readonly topics = new Map<string, TopicEntry>();
  private readonly createSocket: SocketFactory;
  private readonly loadProtocol: () => Promise<RealtimeProtocol>;
  private readonly url: (path: string) => string;
  private readonly random: () => number;
  private readonly fallbackDelayMs: number;
  private readonly lingerMs: number;

  private protocol: RealtimeProtocol | null = null;
  private socket: RealtimeSocket | null = null;
  private generation = 0;
  private state: ConnectionState = 'idle';
  private attempt = 0;
  private healthy = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: ReturnType<typeof setTimeout> | null = null;
  private onlineListener: (() => void) | null = null;
  private readonly sessionEndedListeners = new Set<() => void>();

  constructor(options: RealtimeClientOptions = {}) {
    this.createSocket = options.createSocket ?? browserSocket;
    // The first page comes first: the protocol's code and the socket wait until it has settled (ADR 0035).
    this.loadProtocol =
      options.loadProtocol ??
      (() => whenPageSettled().then(() => import('./realtime-messages.js')));
    this.url = options.url ?? sameOriginSocketUrl;
    this.random = options.random ?? Math.random;
    this.fallbackDelayMs = options.fallbackDelayMs ?? snapshotFallbackDelayMs;
    this.lingerMs = options.lingerMs ?? 2_000;
  }

  /** Latest snapshot of a topic, or undefined until the first one arrives. */
  getSnapshot<K extends TopicKind>(topic: TopicName<K>): TopicSnapshot<K> | undefined {
    // Only documents of the name's own kind are stored under it: frames were parsed against their topic's
    // schema, and the HTTP fallback is typed by the same kind.
    return this.topics.get(topic)?.snapshot;
  }

  /** Current connection state, for diagnostics and tests. */
  get connectionState(): ConnectionState {
    return this.state;
  }

  /** Topics currently held (including ones lingering after their last listener left). */
  get topicNames(): string[] {
    return [...this.topics.keys()];
  }

  /**
   * Adds a listener to a topic (subscribing on first use); returns the matching unsubscribe. The topic's
   * kind types its snapshots (`userTopic(uid)` gives user documents) and the HTTP fallback.
   */
  subscribe<K extends TopicKind>(
    topic: TopicName<K>,
    listener: () => void,
    options: SubscribeOptions<K> = {},
  ): () => void {
    const fetchSnapshot: (() => Promise<TopicDocument>) | undefined = options.fetchSnapshot;
    let entry = this.topics.get(topic);
    if (entry) {
      if (entry.lingerTimer !== null) {
        clearTimeout(entry.lingerTimer);
        entry.lingerTimer = null;
      }
      entry.fetchSnapshot ??= fetchSnapshot;
    } else {
      entry = {
        listeners: new Set(),
        snapshot: undefined,
        fetchSnapshot,
        fallbackTimer: null,
        fallbackAttempt: 0,
        fallbackInFlight: false,
        lingerTimer: null,
      };
      this.topics.set(topic, entry);
      if (this.state === 'open') this.send({ type: 'subscribe', topic });
      this.ensureConnection();
      this.armFallback(topic, entry, this.state === 'stopped' ? 0 : this.fallbackDelayMs);
    }
    if (!entry.snapshot && options.initial !== undefined)
      entry.snapshot = { data: options.initial };
    const held = entry;
    held.listeners.add(listener);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      held.listeners.delete(listener);
      if (held.listeners.size === 0) this.scheduleRelease(topic, held);
    };
  }

  /**
   * Calls `listener` whenever the server says that the session this tab's socket was opened with has
   * ended: signed out here or in another tab, revoked from the sessions list, ended by "sign out
   * everywhere", by a password change or reset, or by the account's deletion. Returns the matching
   * unsubscribe.
   *
   * The socket stays open as a signed-out visitor's: public topics go on updating, so the tab keeps
   * showing public content live, and topics only a signed-in account may follow are dropped (they fall
   * back to their HTTP snapshot). A listener would re-read the session: when the tab turns out to hold a
   * new one (a password change replaces the session of the tab that made it), it calls `reconnect()` so
   * the socket signs in with it; when it holds none, the app shows the signed-out state.
   */
  onSessionEnded(listener: () => void): () => void {
    const held = () => listener();
    this.sessionEndedListeners.add(held);
    return () => {
      this.sessionEndedListeners.delete(held);
    };
  }

  /**
   * Drops the socket and opens a fresh one at once, resubscribing every topic. Called when the
   * signed-in account changes, because the socket is authenticated by the cookie it opened with.
   */
  reconnect(): void {
    this.attempt = 0;
    this.closeSocket();
    this.clearReconnectTimer();
    this.state = 'idle';
    this.ensureConnection();
  }

  /** Closes everything; used by tests and never needed by the app itself. */
  dispose(): void {
    for (const [topic, entry] of this.topics) this.release(topic, entry);
    this.closeSocket();
    this.clearReconnectTimer();
    this.state = 'idle';
    if (this.onlineListener) globalThis.removeEventListener('online', this.onlineListener);
    this.onlineListener = null;
    this.sessionEndedListeners.clear();
  }

  private ensureConnection(): void {
    if (this.topics.size === 0) return;
    if (this.state !== 'idle') return;
    this.listenForOnline();
    this.state = 'connecting';
    if (this.protocol) {
      this.openSocket(this.protocol);
      return;
    }
    const generation = ++this.generation;
    this.loadProtocol().then(
      (protocol) => {
        this.protocol = protocol;
        if (generation !== this.generation || this.state !== 'connecting') return;
        this.openSocket(protocol);
      },
      () => {
        // The protocol chunk did not load (offline?): behave like a dropped socket and retry.
        if (generation !== this.generation) return;
        this.scheduleReconnect();
      },
    );
  }

  private openSocket(protocol: RealtimeProtocol): void {
    if (this.topics.size === 0) {
      this.state = 'idle';
      return;
    }
    const generation = ++this.generation;
    const isCurrent = () => generation === this.generation;
    this.healthy = false;
    try {
      this.socket = this.createSocket(this.url(protocol.realtimePath), {
        onOpen: () => {
          if (isCurrent()) this.handleOpen(protocol);
        },
        onMessage: (data) => {
          if (isCurrent()) this.handleFrame(protocol, data);
        },
        onClose: (code) => {
          if (isCurrent()) this.handleClose(protocol, code);
        },
      });
    } catch {
      this.socket = null;
      this.scheduleReconnect();
    }
  }

  private handleOpen(protocol: RealtimeProtocol): void {
    this.state = 'open';
    for (const topic of this.topics.keys()) this.send({ type: 'subscribe', topic });
    this.stopHeartbeat();
    this.heartbeatTimer = setInterval(() => {
      this.ping(protocol);
    }, protocol.heartbeatIntervalMs);
  }

  private ping(protocol: RealtimeProtocol): void {
    this.send({ type: 'ping' });
    this.pongTimer ??= setTimeout(() => {
      // No answer to the ping in time: the connection is dead even if the browser has not noticed.
      this.pongTimer = null;
      this.closeSocket();
      this.scheduleReconnect();
    }, protocol.heartbeatTimeoutMs);
  }

  private handleFrame(protocol: RealtimeProtocol, raw: string): void {
    if (this.pongTimer !== null) {
      clearTimeout(this.pongTimer);
      this.pongTimer = null;
    }
    const message = parseServerMessage(raw, protocol.serverMessageSchema);
    if (!message) return;
    if (!this.healthy) {
      // Only a connection that actually talks resets the backoff; one that opens and drops does not.
      this.healthy = true;
      this.attempt = 0;
    }
    this.applyMessage(message);
  }

  private applyMessage(message: ServerMessage): void {
    switch (message.type) {
      case 'doc': {
        const entry = this.topics.get(message.topic);
        if (!entry) return;
        this.setSnapshot(entry, message.data);
        return;
      }
      case 'pong':
        return;
      case 'session':
        for (const listener of [...this.sessionEndedListeners]) {
          try {
            listener();
          } catch {
            // One listener's failure must not keep the others from hearing it.
          }
        }
        return;
      case 'error': {
        // A refused subscription still owes the screen an answer: read the document over HTTP.
        if (message.topic === undefined) return;
        const entry = this.topics.get(message.topic);
        if (entry && !entry.snapshot) this.armFallback(message.topic, entry, 0);
        return;
      }
    }
  }

  private handleClose(protocol: RealtimeProtocol, code: number): void {
    this.socket = null;
    this.stopHeartbeat();
    if (code === protocol.realtimeCloseCodes.policy) {
      // spec'd close code 1008: the server will refuse us again, so stop and serve HTTP snapshots.
      this.state = 'stopped';
      for (const [topic, entry] of this.topics) {
        if (!entry.snapshot) this.armFallback(topic, entry, 0);
      }
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.stopHeartbeat();
    this.clearReconnectTimer();
    if (this.topics.size === 0) {
      this.state = 'idle';
      return;
    }
    this.state = 'waiting';
    const delay = backoffDelay(this.attempt, this.random);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.state = 'idle';
      this.ensureConnection();
    }, delay);
  }

  private closeSocket(): void {
    this.stopHeartbeat();
    const socket = this.socket;
    this.socket = null;
    // Bumping the generation detaches the old socket's handlers before it reports its close.
    this.generation += 1;
    if (this.state === 'open' || this.state === 'connecting') this.state = 'idle';
    if (socket) {
      try {
        socket.close(1000, 'client closing');
      } catch {
        // Closing a socket that never opened can throw in some browsers; it is gone either way.
      }
    }
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer !== null) clearInterval(this.heartbeatTimer);
    if (this.pongTimer !== null) clearTimeout(this.pongTimer);
    this.heartbeatTimer = null;
    this.pongTimer = null;
  }

  private clearReconnectTimer(): void {
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private send(message: { type: 'subscribe' | 'unsubscribe'; topic: string } | { type: 'ping' }) {
    if (this.state !== 'open' || !this.socket) return;
    try {
      this.socket.send(JSON.stringify(message));
    } catch {
      // A send on a closing socket fails; its close handler reconnects and resubscribes.
    }
  }

  private setSnapshot(entry: TopicEntry, data: TopicDocument): void {
    entry.snapshot = { data };
    if (entry.fallbackTimer !== null) {
      clearTimeout(entry.fallbackTimer);
      entry.fallbackTimer = null;
    }
    for (const listener of [...entry.listeners]) listener();
  }

  private armFallback(topic: string, entry: TopicEntry, delayMs: number): void {
    if (entry.fallbackTimer !== null) clearTimeout(entry.fallbackTimer);
    entry.fallbackTimer = setTimeout(() => {
      entry.fallbackTimer = null;
      this.runFallback(topic, entry);
    }, delayMs);
  }

  private runFallback(topic: string, entry: TopicEntry): void {
    if (this.topics.get(topic) !== entry || entry.snapshot || entry.fallbackInFlight) return;
    const fetchSnapshot = entry.fetchSnapshot;
    if (!fetchSnapshot) return;
    entry.fallbackInFlight = true;
    fetchSnapshot().then(
      (data) => {
        entry.fallbackInFlight = false;
        // The socket may have answered while we fetched; its copy is at least as fresh.
        if (this.topics.get(topic) !== entry || entry.snapshot) return;
        this.setSnapshot(entry, data);
      },
      () => {
        entry.fallbackInFlight = false;
        if (this.topics.get(topic) !== entry || entry.snapshot) return;
        entry.fallbackAttempt += 1;
        this.armFallback(topic, entry, backoffDelay(entry.fallbackAttempt + 2, this.random));
      },
    );
  }

  private scheduleRelease(topic: string, entry: TopicEntry): void {
    if (entry.lingerTimer !== null) clearTimeout(entry.lingerTimer);
    entry.lingerTimer = setTimeout(() => {
      entry.lingerTimer = null;
      if (entry.listeners.size === 0) this.release(topic, entry);
    }, this.lingerMs);
  }

  private release(topic: string, entry: TopicEntry): void {
    if (this.topics.get(topic) !== entry) return;
    if (entry.fallbackTimer !== null) clearTimeout(entry.fallbackTimer);
    if (entry.lingerTimer !== null) clearTimeout(entry.lingerTimer);
    this.topics.delete(topic);
    this.send({ type: 'unsubscribe', topic });
    if (this.topics.size === 0) {
      // Nothing left to listen to: free the server's socket until the next subscription.
      this.closeSocket();
      this.clearReconnectTimer();
      this.state = 'idle';
    }
  }

  private listenForOnline(): void {
    if (this.onlineListener || typeof globalThis.addEventListener !== 'function') return;
    this.onlineListener = () => {
      // Back online: skip the remaining backoff rather than wait up to 30 s.
      if (this.state === 'waiting') this.reconnect();
    };
    globalThis.addEventListener('online', this.onlineListener);
  }
}

/** The tab's one realtime connection. It opens on the first subscription, not on import. */
export const realtimeClient = new RealtimeClient();
