// Parity (issue 14): for every day of the seed's history, the materialised answer is byte for byte
// what a fresh computation with the same pure blend code gives; and a restart serves the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays } from '../src/time/days.js';
import { dayBody } from '../src/http/bodies/day.js';
import { inputWindow } from '../src/blend/window.js';
import { blendDay } from '../src/history/day.js';
import { History, tableOf } from '../src/history/history.js';
import { loadSeed } from '../src/ingest/seed.js';
import { SOURCES } from '../src/sources/index.js';
import { openSqlite } from '../src/store/open.js';
import { seed, SEED_TODAY, tempDb } from './helpers.js';

const TODAY = SEED_TODAY.toISOString().slice(0, 10);

test('every materialised day of the seed equals a fresh computation, byte for byte, also after a restart', async () => {
  const db = tempDb();
  const store = openSqlite(db.path);
  try {
    await store.migrate();
    await loadSeed(store, SOURCES, seed(), SEED_TODAY);
    const history = new History(store, SOURCES, 0);
    await history.load();
    const done = await history.materialise(TODAY);
    const span = (await store.observationSpan())!;
    const first = addDays(span.first, -1);
    assert.deepEqual(done.ranges, [{ from: first, to: TODAY }]);
    const all = await store.observationsBetween('0000-01-01', '9999-12-31');
    const restarted = new History(store, SOURCES, 0);
    await restarted.load();
    let days = 0;
    let withRates = 0;
    for (let day = first; day <= TODAY; day = addDays(day, 1)) {
      assert.equal(history.isReady(day), true, `${day} is materialised`);
      const w = inputWindow(day);
      const rows = all.filter((r) => r.date >= w.from && r.date <= w.to);
      const fresh = dayBody(tableOf(day, blendDay(SOURCES, rows, day, 0)), 'USD', day, undefined)?.body;
      const stored = dayBody(await history.day(day), 'USD', day, undefined)?.body;
      const reloaded = dayBody(await restarted.day(day), 'USD', day, undefined)?.body;
      assert.equal(stored, fresh, `stored answer of ${day}`);
      assert.equal(reloaded, fresh, `answer of ${day} after a restart`);
      days++;
      if (fresh !== undefined) withRates++;
    }
    assert.ok(withRates > 30, `${withRates} of ${days} days have rates`);
    // Nothing new: a second run rebuilds nothing.
    assert.equal((await history.materialise(TODAY)).days, 0);
  } finally {
    await store.close();
    db.cleanup();
  }
});
