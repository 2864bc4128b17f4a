// Versioned migrations, written with Kysely's schema builder so one list serves SQLite and PostgreSQL;
// the few type differences are decided per dialect inside a migration. Never edit a migration that
// has shipped; add the next one.
import type { Migration } from 'kysely';
import { initial, type DialectName } from './0001-initial.js';
import { sourceHealth } from './0002-source-health.js';
import { chargeBatchFunction } from './0003-charge-batch.js';
import { usageLimits } from './0004-usage-limits.js';
import { history } from './0005-history.js';
import { ledger } from './0006-ledger.js';
import { periods } from './0007-periods.js';
import { marks } from './0008-marks.js';

export type { DialectName };

export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001-initial': initial(dialect),
    '0002-source-health': sourceHealth,
    '0003-charge-batch': chargeBatchFunction(dialect),
    '0004-usage-limits': usageLimits,
    '0005-history': history,
    '0006-ledger': ledger(dialect),
    '0007-periods': periods,
    '0008-marks': marks,
  };
}
