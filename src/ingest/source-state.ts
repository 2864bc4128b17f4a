// A source's state as the operator reads it: the same word on `/status` and in `kurs sources` (D26).
// Failing first (its last attempt failed), then no figures held, then whether the newest figure (of a
// period source, the end of its newest period) is still within its cadence on `today` (D10, D21).
import { sourceFreshUntil } from '../blend/freshness.js';
import type { Source } from '../sources/types.js';
import type { SourceStatus } from './health.js';

export type SourceState = 'failing' | 'stale' | 'no data' | 'ok';

export function sourceState(source: Source, s: SourceStatus, today: string, graceDays: number): { state: SourceState; fresh: boolean } {
  const until = sourceFreshUntil(source, { newestDate: s.newest_observation, newestValidTo: s.newest_valid_to }, graceDays);
  const fresh = until !== undefined && today <= until;
  return { fresh, state: s.failing ? 'failing' : s.newest_observation === null ? 'no data' : fresh ? 'ok' : 'stale' };
}
