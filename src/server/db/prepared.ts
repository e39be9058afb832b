import { createQueryId, type Compilable, type CompiledQuery, type QueryResult } from 'kysely';

/** What runs a compiled query: the database, or a transaction. */
export interface QueryRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/**
 * Runs SQL at once on a database's connection, without Kysely's executor, where that does what the
 * executor would: returns the rows (none for a write without `returning`), or undefined when it cannot
 * (the connection is another's until it is released). `inTransaction`: the SQL belongs to the transaction
 * that holds the connection.
 */
export type DirectRunner = (
  sql: string,
  parameters: readonly unknown[],
  inTransaction: boolean,
) => unknown[] | undefined;

const directRunners = new WeakMap<QueryRunner, DirectRunner>();

/** Lets the prepared queries of `db` run directly (SQLite's synchronous connection, ADR 0041). */
export function runDirectly(db: QueryRunner, runner: DirectRunner): void {
  directRunners.set(db, runner);
}

const isTransaction = (runner: QueryRunner): boolean =>
  (runner as { isTransaction?: unknown }).isTransaction === true;

/** Stands for a parameter (or one item of a list parameter) while a query is built. */
class Slot {
  constructor(
    readonly name: string,
    /** The item's position in a list parameter; null for a single value. */
    readonly index: number | null,
  ) {}
}

/** One compiled form of the query, and where each caller's value goes in its parameters. */
interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** For each parameter of the SQL, the stand-in it was built from, or null for a constant. */
  slots: (Slot | null)[];
}

/** Distinct list lengths compiled per query at most; past it the first ones are forgotten. */
export const preparedShapesMax = 64;

/**
 * A Kysely query built and compiled to SQL once, then run with new parameter values: the builder's
 * immutable copies and the compiler's walk of the tree are paid once, not on every request. Each value
 * passed in becomes a bound parameter, on SQLite and PostgreSQL alike; on SQLite the statement cache then
 * reuses the prepared statement too (sqlite-statements.ts).
 *
 * `build` gets stand-ins for the parameters and must use each only where Kysely binds a value: a
 * comparison, `limit`, an inserted value, or `in` with a list parameter (an array value). A query with
 * list parameters is compiled once per distinct combination of their lengths (at most
 * `preparedShapesMax` kept). A stand-in used where Kysely looks into the value (a column name, a
 * condition built from it) is refused when the query is compiled.
 */
export class PreparedQuery<Params extends Record<string, unknown>, Row> {
  readonly #shapes = new Map<string, Compiled<Row>>();

  constructor(
    private readonly db: QueryRunner,
    private readonly build: (params: Params) => Compilable<Row>,
  ) {}

  /** The SQL for these values, for tests and diagnostics. */
  sql(values: Params): string {
    return this.#compiled(values).query.sql;
  }

  /**
   * Runs the query with these values; rows as Kysely would have returned them. A write's transaction
   * passes itself as `runner`: the query then runs inside it (on SQLite, the database's one connection is
   * the transaction's until it ends, so the database would wait for it).
   */
  async execute(values: Params, runner: QueryRunner = this.db): Promise<Row[]> {
    const { query, slots } = this.#compiled(values);
    const constants = query.parameters;
    const parameters = slots.map((slot, position) => {
      if (slot === null) return constants[position];
      const value = values[slot.name];
      return slot.index === null ? value : (value as unknown[])[slot.index];
    });
    // The database itself, or a transaction, which repositories only ever take from their own database.
    const own = runner === this.db || isTransaction(runner);
    const rows = own
      ? directRunners.get(this.db)?.(query.sql, parameters, runner !== this.db)
      : undefined;
    if (rows) return rows as Row[];
    const result = await runner.executeQuery<Row>({
      ...query,
      queryId: createQueryId(),
      parameters,
    });
    return result.rows;
  }

  /** The first row, or undefined. */
  async executeTakeFirst(values: Params, runner: QueryRunner = this.db): Promise<Row | undefined> {
    const [first] = await this.execute(values, runner);
    return first;
  }

  /** The compiled form for the lengths of these values' lists, compiling it the first time. */
  #compiled(values: Params): Compiled<Row> {
    let shape = '';
    for (const [name, value] of Object.entries(values)) {
      if (Array.isArray(value)) shape += `${name}:${value.length};`;
    }
    const known = this.#shapes.get(shape);
    if (known) return known;
    const compiled = this.#compile(values);
    if (this.#shapes.size >= preparedShapesMax) {
      const oldest = this.#shapes.keys().next();
      if (!oldest.done) this.#shapes.delete(oldest.value);
    }
    this.#shapes.set(shape, compiled);
    return compiled;
  }

  #compile(values: Params): Compiled<Row> {
    const used = new Set<string>();
    const stand = (name: string): Slot | Slot[] => {
      used.add(name);
      const value = values[name];
      return Array.isArray(value)
        ? value.map((_item, index) => new Slot(name, index))
        : new Slot(name, null);
    };
    const params = new Proxy({} as Params, {
      get: (_target, name) => (typeof name === 'string' ? stand(name) : undefined),
    });
    const query = this.build(params).compile();
    const slots = query.parameters.map((value) => (value instanceof Slot ? value : null));
    for (const name of used) {
      const list = values[name];
      const bound = slots.filter((slot) => slot?.name === name).length;
      // A list is bound item by item (an empty one binds nothing); a single value at least once.
      const isBound = Array.isArray(list)
        ? list.length === 0 || (bound >= list.length && bound % list.length === 0)
        : bound >= 1;
      if (!isBound) {
        throw new Error(`the prepared query does not bind its parameter ${name} as a value`);
      }
    }
    return { query, slots };
  }
}

/**
 * A query compiled once; see `PreparedQuery`. Build it where the repository is constructed, with the
 * repository's `db`, and keep it for the process's life:
 *
 * ```ts
 * const liked = prepare(db, (p: { uid: string; postIds: string[] }) =>
 *   db.selectFrom('likes').select('postId').where('userId', '=', p.uid).where('postId', 'in', p.postIds),
 * );
 * const rows = await liked.execute({ uid, postIds });
 * ```
 */
export function prepare<Params extends Record<string, unknown>, Row>(
  db: QueryRunner,
  build: (params: Params) => Compilable<Row>,
): PreparedQuery<Params, Row> {
  return new PreparedQuery(db, build);
}
