// A running SQLite server brings its history up to data that another process stores (a `kurs ingest`
// run, a backfill): the 2-second poll sees the new data version, the rates are rebuilt, and the
// rebuild's after-data step materialises the touched days. The real server process, its own clock.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey } from '../src/access/accounts.js';
import { ingestPayload } from '../src/ingest/ingest.js';
import { sourceByCode } from '../src/sources/index.js';
import { openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { addDays, isWeekend, utcDay } from '../src/time/days.js';
import type { Running } from '../bench/servers.js';
import { tempDb } from './helpers.js';
import { startServer, stopServer } from './support/server-process.js';

const daily = (date: string, usd: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='${date}'><Cube currency='USD' rate='${usd}'/></Cube></Cube></gesmes:Envelope>`;
/** The `n`th weekday before today: the ECB publishes on weekdays only, and a figure dated on a
 *  weekend is not one of its days (this test failed on a Sunday, stop 45). */
const weekdaysAgo = (n: number) => {
  let day = utcDay(new Date());
  for (let left = n; left > 0; ) {
    day = addDays(day, -1);
    if (!isWeekend(Date.parse(day))) left--;
  }
  return day;
};

describe('history follows data stored by another process', () => {
  const db = tempDb();
  let store: Store;
  let server: Running;
  let key: string;
  before(async () => {
    store = openSqlite(db.path);
    await store.migrate();
    await ingestPayload(store, sourceByCode('ECBF')!, { name: 'first.xml', body: Buffer.from(daily(weekdaysAgo(3), '1.1700')) }, new Date());
    key = (await createKey(store, { plan: 'business', points: 1_000_000 }, new Date())).key;
    server = await startServer({ KURS_DATABASE_URL: db.url, KURS_SEED: 'off', KURS_FRESHNESS_GRACE_DAYS: '30' });
  });
  after(async () => {
    await stopServer(server.child);
    await store.close();
    db.cleanup();
  });

  const usdOn = async (day: string) => {
    const res = await fetch(`${server.url}/v1/EUR/${day}`, { headers: { authorization: key } });
    return res.status === 200 ? ((await res.json()) as { rates: Record<string, number> }).rates.USD : res.status;
  };

  // Waited for without a deadline of its own (no test may depend on timing): the test's timeout
  // bounds a server that never follows.
  test('a day stored after the server started is answered with its own figures', { timeout: 180_000 }, async () => {
    const [older, newer] = [weekdaysAgo(3), weekdaysAgo(1)];
    while ((await usdOn(older)) !== 1.17) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await usdOn(older), 1.17);
    // Before the new figure, the newer day carries the older one forward.
    assert.equal(await usdOn(newer), 1.17);
    await ingestPayload(store, sourceByCode('ECBF')!, { name: 'second.xml', body: Buffer.from(daily(newer, '1.1712')) }, new Date());
    let seen: unknown;
    while ((seen = await usdOn(newer)) !== 1.1712 && seen === 1.17) await new Promise((r) => setTimeout(r, 100));
    // Only the old figure carried forward may come before it: anything else is wrong at once.
    assert.equal(seen, 1.1712, 'the day stored by another process was not materialised');
    assert.equal(await usdOn(older), 1.17);
  });
});
