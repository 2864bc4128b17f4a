// Fresh rates on the real clock: the ECB's recorded daily file, dated yesterday, stored through the
// ordinary ingest. A server whose bundled seed is months old then quotes the ECB's currencies as
// fresh, as one that has just reached the feed would, so the examples run against the real clock
// both ways: before the feed (their one-line explanation) and after it (their whole output).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ingestPayload } from '../../src/ingest/ingest.js';
import { SOURCES } from '../../src/sources/index.js';
import type { Store } from '../../src/store/store.js';
import { addDays, utcDay } from '../../src/time/days.js';
import { fixtureDir } from './fixtures.js';

const RECORDED = 'eurofxref-daily-2025-05-09.xml';

/** Stores the ECB's figures of 2025-05-09 as published yesterday (UTC); returns that day. */
export async function ecbYesterday(store: Store, now: Date = new Date()): Promise<string> {
  const day = addDays(utcDay(now), -1);
  const recorded = readFileSync(new URL(RECORDED, fixtureDir('ECBF')), 'utf8');
  assert.ok(recorded.includes("time='2025-05-09'"), RECORDED);
  const body = Buffer.from(recorded.replace("time='2025-05-09'", `time='${day}'`));
  const outcome = await ingestPayload(store, SOURCES.find((s) => s.code === 'ECBF')!, { name: 'eurofxref-daily.xml', body }, now);
  assert.equal(outcome.status, 'stored', JSON.stringify(outcome));
  return day;
}
