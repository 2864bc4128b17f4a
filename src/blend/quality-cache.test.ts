import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SourceInfo } from './inputs.js';
import { QualityCache } from './quality-cache.js';
import { SnapshotMemo } from './snapshots.js';
import { qualityFor, qualitySteps } from './quality.js';
import { ranWhole } from '../time/turns.js';

const sources: SourceInfo[] = ['AAAA', 'BBBB', 'CCCC', 'DDDD'].map((code) => ({ code, currency: 'USD', cadence: 'daily', publishedAtUtc: '15:00:00' }));
const rows = (storedAt: string, noisy = 0) => ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'].flatMap((date, i) =>
  sources.map((s, j) => ({ source: s.code, quote: 'SEK', date, rate: (10 * (1 + 0.003 * i) * (j === 3 ? 1 + noisy * (i % 2 ? 1 : -1) : 1)).toFixed(4), direction: 'indirect' as const, unit: 1, table: '', storedAt })));

test('the quality cache keeps a month\'s measure while its window\'s figures stay the same, and measures again when one is stored later', () => {
  const cache = new QualityCache();
  const first = cache.of(sources, rows('2026-03-07T00:00:00Z'), '2026-04-14');
  assert.equal(cache.of(sources, rows('2026-03-07T00:00:00Z'), '2026-04-20'), first, 'same anchor, same figures: kept');
  const revised = cache.of(sources, rows('2026-04-15T00:00:00Z', 0.02), '2026-04-20');
  assert.notEqual(revised, first);
  assert.ok(revised.errors.get('SEK')!.get('DDDD')! > first.errors.get('SEK')!.get('DDDD')!, 'the revised, noisier figures measure a larger error');
  assert.notEqual(cache.of(sources, rows('2026-04-15T00:00:00Z', 0.02), '2026-05-02'), revised, 'a new month measures again');
});

test('a cache of several months keeps the newest ones, and finds a sorted run\'s window as it scans unsorted rows', () => {
  const stored = rows('2026-03-07T00:00:00Z');
  const cache = new QualityCache(2);
  const april = cache.of(sources, stored, '2026-04-14');
  const may = cache.of(sources, stored, '2026-05-14');
  assert.equal(cache.of(sources, stored, '2026-04-30'), april, 'two months kept');
  cache.of(sources, stored, '2026-06-01');
  assert.equal(cache.of(sources, stored, '2026-05-02'), may, 'the newest two kept');
  assert.notEqual(cache.of(sources, stored, '2026-04-02'), april, 'the oldest of three measured again');

  // A run's rows sorted by date, with its memo and snapshots (history/day.ts): the same measure.
  const run = () => ({ memo: new Map(), snapshots: new SnapshotMemo(new Map(sources.map((s) => [s.code, s]))) });
  const byDate = (list: typeof stored) => [...list].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const history = new QualityCache(12);
  const measured = history.of(sources, byDate(stored), '2026-04-14', run());
  assert.deepEqual(measured, april, 'the same figures measure the same quality');
  assert.equal(history.of(sources, byDate(stored), '2026-04-20', run()), measured, 'a later run with the same figures keeps it');
  assert.notEqual(history.of(sources, byDate(rows('2026-04-15T00:00:00Z')), '2026-04-20', run()), measured, 'a figure stored later: measured again');
});

test('measured in steps (D32), a month\'s quality is the one measured whole, with a pause after each date read and each currency', () => {
  const quotes = ['SEK', 'NOK', 'DKK'];
  const many = rows('2026-03-07T00:00:00Z', 0.01).flatMap((r) => quotes.map((quote, k) => ({ ...r, quote, rate: (Number(r.rate) * (1 + k)).toFixed(4) })));
  const byDate = [...many].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const memo = () => new SnapshotMemo(new Map(sources.map((s) => [s.code, s])));
  const whole = qualityFor(sources, byDate, '2026-04-14', new Map(), memo());
  const steps = qualitySteps(sources, byDate, '2026-04-14', new Map(), memo());
  let pauses = 0;
  let r = steps.next();
  for (; !r.done; r = steps.next()) pauses++;
  assert.deepEqual(r.value, whole);
  assert.equal(whole.errors.size, quotes.length, 'every currency measured');
  // Five dates read, the points sorted, then two pauses per currency (volatility, errors).
  assert.ok(pauses >= 5 + 1 + 2 * quotes.length, `paused ${pauses} times`);
  // Kept in the memo given: asked again, no step at all.
  const kept = new Map();
  ranWhole(qualitySteps(sources, byDate, '2026-04-14', kept, memo()));
  assert.equal(qualitySteps(sources, byDate, '2026-04-20', kept, memo()).next().done, true);
});
