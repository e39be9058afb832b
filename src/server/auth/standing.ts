import type { Kysely } from 'kysely';
import { prepare } from '../db/prepared.js';
import type { Database } from '../db/schema.js';
import { toActive, toIsoStringOrNull } from '../db/values.js';

/** What an authenticated request needs of its user: no profile columns, no image joins. */
export interface Standing {
  id: string;
  role: string | null;
  active: boolean;
  suspendedAt: string | null;
  suspendedUntil: string | null;
}

function standingQuery(db: Kysely<Database>) {
  return prepare(db, (params: { uid: string }) =>
    db
      .selectFrom('users')
      .select(['id', 'role', 'active', 'suspendedAt', 'suspendedUntil'])
      .where('id', '=', params.uid),
  );
}

/**
 * Reads the standing of the user behind a request, on every signed-in request and uncached on purpose (a
 * change of role or a deactivation applies to the very next one), so its query is compiled once.
 */
export class StandingReader {
  readonly #byId: ReturnType<typeof standingQuery>;

  constructor(db: Kysely<Database>) {
    this.#byId = standingQuery(db);
  }

  async findStanding(uid: string): Promise<Standing | undefined> {
    const row = await this.#byId.executeTakeFirst({ uid });
    return (
      row && {
        id: row.id,
        role: row.role,
        active: toActive(row.active),
        suspendedAt: toIsoStringOrNull(row.suspendedAt),
        suspendedUntil: toIsoStringOrNull(row.suspendedUntil),
      }
    );
  }
}
