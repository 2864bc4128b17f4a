// node-postgres, loaded the first time a PostgreSQL store or coordination is opened: a SQLite
// server never pays the ~25 ms it takes to load (measured with `require('pg')` on the seventh
// round's VM), which is part of every cold start.
import type pg from 'pg';
import { requiredOnFirstUse } from '../lazy-require.js';

export const pgLib = requiredOnFirstUse<typeof pg>('pg');
