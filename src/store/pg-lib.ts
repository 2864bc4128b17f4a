// node-postgres, loaded the first time a PostgreSQL store or coordination is opened: a SQLite
// server never pays the ~25 ms it takes to load (measured with `require('pg')` on the seventh
// round's VM), which is part of every cold start.
import { createRequire } from 'node:module';
import type pg from 'pg';

/** Module-level as the module cache itself is: the library, once loaded, is the process's. */
let loaded: typeof pg | undefined;

export function pgLib(): typeof pg {
  loaded ??= createRequire(import.meta.url)('pg') as typeof pg;
  return loaded;
}
