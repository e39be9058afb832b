import { CompiledQuery, createQueryId, sql, type Kysely, type RootOperationNode } from 'kysely';
import type { DatabaseHandle } from '../database.js';
import type { Database } from '../schema.js';

/** For the migrations' tests: what each dialect says of a query's plan and of a table's indexes. */

/** The plan each dialect gives for `query`, as one text. */
export async function planOf(handle: DatabaseHandle, query: CompiledQuery): Promise<string> {
  const prefix = handle.dialect === 'postgres' ? 'EXPLAIN ' : 'EXPLAIN QUERY PLAN ';
  const result = await handle.db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(prefix + query.sql, [...query.parameters]),
  );
  return result.rows.map((row) => Object.values(row).join(' ')).join('\n');
}

/** Name and definition of each index on `table`, but its primary key. */
export async function indexesOf(
  handle: DatabaseHandle,
  table: string,
): Promise<Map<string, string>> {
  const rows =
    handle.dialect === 'postgres'
      ? await sql<{ name: string; definition: string }>`
          SELECT indexname AS name, indexdef AS definition FROM pg_indexes
          WHERE tablename = ${table} AND indexname NOT LIKE '%_pkey'`.execute(handle.db)
      : await sql<{ name: string; definition: string }>`
          SELECT name, sql AS definition FROM sqlite_master
          WHERE type = 'index' AND tbl_name = ${table} AND sql IS NOT NULL`.execute(handle.db);
  return new Map(rows.rows.map((row) => [row.name, row.definition]));
}

/**
 * The database as a repository would use it, keeping each query it runs, compiled as it ran: so a test can
 * ask for the plan of a query a repository builds inside.
 */
export function capturing(handle: DatabaseHandle): {
  db: Kysely<Database>;
  queries: CompiledQuery[];
} {
  const nodes: RootOperationNode[] = [];
  const db = handle.db.withPlugin({
    transformQuery: ({ node }) => {
      nodes.push(node);
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  });
  return {
    db,
    get queries() {
      return nodes.map((node) => handle.db.getExecutor().compileQuery(node, createQueryId()));
    },
  };
}
