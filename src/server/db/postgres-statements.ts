import { hash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/*
 * PostgreSQL plans each query the app sends (ADR 0044). Sent unnamed, as Kysely sends them, every query
 * is parsed and planned anew, each time: for a like, about 1.3 ms of the backend's 2.2 ms went on parsing
 * and planning its seven statements, the post's read with its author and the viewer's state alone taking
 * 0.6 ms. A named statement is parsed once per connection, and after five runs PostgreSQL keeps a generic
 * plan for it when that plan costs no more than planning each time.
 */

/** How many statements are named, how often a text must be seen first, and how long it may be. */
export const statementLimits = {
  maxNamed: 1_000,
  /** A text sent once (an id list of one length, say) is not worth a statement on every connection. */
  seenBeforeNaming: 2,
  maxSeen: 4_000,
  maxTextChars: 16_384,
} as const;

/**
 * Marks a query whose best plan depends on its values: it is never named, so PostgreSQL plans it for the
 * values of each run. A generic plan would guess how many posts a search's words match, where the words
 * themselves tell the planner whether to walk the newest posts or read the GIN index (ADR 0018).
 */
export const plannedForItsValues = '/* planned for its values */';

/**
 * Names the query texts that come back. A text is named on its second run, and keeps its name for the
 * life of the process, so each connection prepares it once; past `maxNamed` texts, new ones run unnamed.
 * Texts PostgreSQL refused to run as a named statement stay unnamed.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Map<string, number>();
  private readonly refused = new Set<string>();

  nameFor(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (
      this.names.size >= statementLimits.maxNamed ||
      text.length > statementLimits.maxTextChars ||
      this.refused.has(text) ||
      text.includes(plannedForItsValues)
    ) {
      return undefined;
    }
    const runs = (this.seen.get(text) ?? 0) + 1;
    if (runs < statementLimits.seenBeforeNaming) {
      // Counting starts over rather than growing without end.
      if (this.seen.size >= statementLimits.maxSeen) this.seen.clear();
      this.seen.set(text, runs);
      return undefined;
    }
    this.seen.delete(text);
    // Named by the text itself: behind a pooler that shares server connections between instances, a
    // name another process prepared is always the same query.
    const name = `hearth_${hash('sha256', text, 'hex').slice(0, 24)}`;
    this.names.set(text, name);
    return name;
  }

  /** The text runs unnamed from now on. */
  refuse(text: string): void {
    this.names.delete(text);
    if (this.refused.size < statementLimits.maxNamed) this.refused.add(text);
  }
}

/**
 * Errors after which a statement is sent unnamed instead: its cached plan no longer fits a changed table
 * (`0A000`, "cached plan must not change result type"), or the server no longer has it (`26000`, as behind
 * a pooler that hands the session to another client).
 */
const unnamedAgain = new Set(['0A000', '26000']);

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

type QueryArgs = [string, ReadonlyArray<unknown>] | [Parameters<PostgresPoolClient['query']>[0]];

/**
 * The pool Kysely reads through: the same connections, whose queries with parameters run as named
 * statements (those without stay on the simple protocol, which also takes several statements at once).
 */
export function preparingPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const run = async <R>(text: string, values: unknown[]): Promise<PostgresQueryResult<R>> => {
      const name = values.length > 0 ? names.nameFor(text) : undefined;
      if (name === undefined) {
        return (await client.query(text, values)) as unknown as PostgresQueryResult<R>;
      }
      try {
        return (await client.query({ name, text, values })) as unknown as PostgresQueryResult<R>;
      } catch (error) {
        const code = errorCode(error);
        if (code === undefined || !unnamedAgain.has(code)) throw error;
        names.refuse(text);
        return (await client.query(text, values)) as unknown as PostgresQueryResult<R>;
      }
    };
    const wrapped = {
      query(...args: QueryArgs) {
        if (args.length === 2) return run(args[0], [...args[1]]);
        // A cursor (a streamed query) goes to the connection as it is.
        return client.query(args[0] as unknown as pg.Submittable);
      },
      release: () => {
        client.release();
      },
    } as PostgresPoolClient;
    clients.set(client, wrapped);
    return wrapped;
  };

  return {
    connect: async () => {
      const client = await pool.connect();
      return clients.get(client) ?? wrap(client);
    },
    end: () => pool.end(),
  };
}
