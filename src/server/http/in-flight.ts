import type { FastifyInstance } from 'fastify';

/**
 * The endpoint handlers still running on one server. A handler goes on after its client has gone (an
 * aborted request, a load generator that stops mid-request), and the HTTP server counts connections, not
 * handlers: it can report itself closed while a write is still under way. Shutdown waits here, within a
 * bound, before it closes the database, the bus and the mailer, so such a write finishes and announces
 * itself instead of failing on a closed pool.
 */
export class HandlersInFlight {
  #running = 0;
  readonly #waiting = new Set<() => void>();

  /** Counts one handler in; the function it returns counts it out (call it exactly once). */
  begin(): () => void {
    this.#running += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#running -= 1;
      if (this.#running === 0) for (const wake of [...this.#waiting]) wake();
    };
  }

  get running(): number {
    return this.#running;
  }

  /** Resolves true once no handler runs, or false when `timeoutMs` passes first. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.#running === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiting.delete(wake);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiting.delete(wake);
        resolve(false);
      }, timeoutMs);
      this.#waiting.add(wake);
    });
  }
}

/** One count per HTTP server: every encapsulated Fastify instance of an app shares its root's server. */
const byServer = new WeakMap<object, HandlersInFlight>();

export function handlersInFlight(app: FastifyInstance): HandlersInFlight {
  let handlers = byServer.get(app.server);
  if (!handlers) {
    handlers = new HandlersInFlight();
    byServer.set(app.server, handlers);
  }
  return handlers;
}
