// Materialising gives the event loop a turn every few days, so requests that arrive meanwhile wait
// for a few days' blends, not for a whole chunk (92 days: ~175 ms on a slow VM).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMarketClosed } from '../blend/hours.js';
import { SOURCES } from '../sources/index.js';
import { openSqlite } from '../store/open.js';
import { addDays } from '../time/days.js';
import { materialiseRange, YIELD_DAYS } from './materialise.js';

test('materialiseRange computes and stores every day, with a turn of the event loop every YIELD_DAYS days', async () => {
  const store = openSqlite(':memory:');
  await store.migrate();
  const first = '2026-01-01';
  const days = Array.from({ length: 40 }, (_, i) => addDays(first, i));
  const rows = days.map((date, i) => ({ quote: 'USD', date, rate: `1.1${String(i).padStart(2, '0')}`, direction: 'indirect' as const, unit: 1, table: '' }));
  await store.storeSnapshot({ source: 'ECBF', name: 'days.xml', sha256: 'd'.repeat(64), rows, at: '2026-02-15T00:00:00.000Z' });

  let computed = 0;
  let done = false;
  // Days computed when each turn of the loop came: a request waits for at most the gap between two.
  const turns: number[] = [];
  const turn = () => setImmediate(() => (turns.push(computed), done || turn()));
  turn();
  const usd: string[] = [];
  const count = await materialiseRange(store, SOURCES, 3, { from: first, to: days.at(-1)! }, (_, rates) => {
    computed++;
    usd.push(String(rates.get('EUR')?.perUsd));
  });
  done = true;

  assert.equal(count, 40);
  const gaps = turns.map((n, i) => n - (turns[i - 1] ?? 0));
  assert.ok(turns.length >= 40 / YIELD_DAYS && Math.max(...gaps) <= YIELD_DAYS, `days between turns: ${gaps.join(' ')}`);
  // Each trading day blends its own ECB figure (EUR per USD is the inverse of that day's rate); a day
  // the market is shut (New Year's Day, a weekend) answers the last trading day's, none before the
  // first; and every day was stored.
  assert.deepEqual(usd.slice(0, 4), ['undefined', '0.908265213442325', '0.908265213442325', '0.908265213442325']);
  const trading = (i: number): number => (isMarketClosed(days[i]!) ? trading(i - 1) : i);
  assert.ok(usd.slice(1).every((perUsd, i) => Math.abs(Number(perUsd) * Number(rows[trading(i + 1)]!.rate) - 1) < 1e-12));
  const stored = await store.historyDays(first, days.at(-1)!);
  assert.deepEqual(stored.map((d) => d.day), days);
  await store.close();
});
