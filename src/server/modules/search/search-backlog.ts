import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Dialect } from '../../db/database.js';
import { writerBusy, type SearchBacklogRepository } from './search-backlog.repository.js';

/** How often new posts go into SQLite's search index, when no search asked for them first. */
export const searchBacklogIntervalMs = 1_000;

/**
 * Posts indexed per transaction: about 3 ms of the event loop and the database's one writer. A longer
 * backlog (a burst, a restart) is worked off a batch at a time, with other requests served in between.
 * Larger batches save little: on a million posts a new post costs about 75 µs of CPU in all at 100 a
 * batch, 60 µs at 500, against 420 µs when each post's commit wrote the index.
 */
export const searchBacklogBatch = 100;

/**
 * SQLite's search index is brought up to date in batches (migration 0009, ADR 0030): a new post is found
 * by search once a batch has indexed it, within about a second, and at once by a search that comes
 * earlier, since each post search asks for the backlog first. PostgreSQL indexes each post in its own
 * row and has no backlog.
 */
export class SearchBacklog {
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #running: Promise<void> | undefined;

  constructor(
    private readonly backlog: SearchBacklogRepository,
    private readonly dialect: Dialect,
    private readonly log: Logger,
  ) {}

  /** Indexes what the last run left (a crash, a restart), then keeps indexing every interval. */
  start(): void {
    if (this.dialect === 'postgres') return;
    this.#timer = setInterval(() => void this.#background(), searchBacklogIntervalMs);
    this.#timer.unref();
    void this.#background();
  }

  /**
   * Indexes every post written so far. Concurrent calls share nothing and need not: each batch reads the
   * mark in its own write transaction, so two callers never index a post twice, and each returns only once
   * the posts committed before it was called are in the index.
   *
   * With `lock: 'skip'` (the interval's runs) it stops, quietly, where another connection holds the write
   * lock, instead of holding the event loop while it waits: the next run carries on.
   */
  async flush(lock: 'wait' | 'skip' = 'wait'): Promise<void> {
    if (this.dialect === 'postgres') return;
    while (!this.#closed && (await this.backlog.pending())) {
      const indexed = await this.backlog.indexBatch(searchBacklogBatch, lock);
      if (indexed === writerBusy || indexed < searchBacklogBatch) return;
      await nextTurn();
    }
  }

  /**
   * Before a post search: brings the index up to date, or, should that fail (the database busy past its
   * timeout), leaves it as it is. The search then misses at most the last second's posts instead of
   * failing.
   */
  async beforeSearch(): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      this.log.warn({ err: error }, 'search index update failed; searching what is indexed');
    }
  }

  /** Stops the interval and waits for a batch in progress; what is left is indexed at the next start. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#running;
  }

  async #background(): Promise<void> {
    if (this.#running) return;
    this.#running = this.flush('skip')
      .catch((error: unknown) => {
        // A failed batch rolled back whole; the next run tries the same posts again.
        this.log.warn({ err: error }, 'search index update failed; retrying');
      })
      .finally(() => {
        this.#running = undefined;
      });
    await this.#running;
  }
}
