// Safety at ingest: each kind of bad payload is rejected with a reason, nothing of it is stored,
// the previous figures stay served, and `kurs sources` would show the source failing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ingestLive } from '../src/ingest/live.js';
import { createHttpClient } from '../src/sources/http.js';
import { sourceByCode } from '../src/sources/index.js';
import { testApp, type TestApp } from './helpers.js';
import { startFeedServer, type FeedServer } from './support/feed-server.js';

const NOW = new Date('2026-04-15T18:00:00Z');
const ecbDaily = (date: string, rates: Record<string, string>) => `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${date}'>
${Object.entries(rates).map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>`).join('\n')}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>`;

const GOOD = ecbDaily('2026-04-14', { USD: '1.1700', JPY: '187.10', GBP: '0.86500' });
const FAULTS: [string, string, RegExp][] = [
  ['an HTML error page with status 200', '<!DOCTYPE html><html><body><h1>Service temporarily unavailable</h1></body></html>', /ECBF/],
  ['truncated XML', GOOD.slice(0, GOOD.length - 60), /ECBF/],
  ['an empty table', ecbDaily('2026-04-15', {}), /ECBF/],
  ['a rate of 0', ecbDaily('2026-04-15', { USD: '0', JPY: '187.20' }), /positive/],
  ['a date in the future', ecbDaily('2026-04-20', { USD: '1.1710' }), /ahead/],
  ['a 50% jump from the previous day', ecbDaily('2026-04-15', { USD: '1.1710', JPY: '290.00' }), /JPY moved/],
];

describe('safety at ingest', () => {
  let t: TestApp;
  let server: FeedServer;
  let body = GOOD;
  let key: string;
  before(async () => {
    server = await startFeedServer(() => ({ body, contentType: 'text/xml' }));
    t = await testApp({ now: NOW, seeded: false });
    ({ key } = await t.key());
  });
  after(async () => {
    await t.close();
    await server.close();
  });

  const ecbf = sourceByCode('ECBF')!;
  const live = () => ingestLive({ store: t.store, http: createHttpClient({ retries: 0 }), config: { sourceUrls: { ECBF: server.url }, sourceKeys: {} }, now: () => NOW }, ecbf);
  const bankRates = async () => {
    await t.market.rebuild(NOW);
    return (await t.app.inject({ method: 'GET', url: '/v1/bank/ECBF?reciprocal=true', headers: { authorization: key } })).json().rates;
  };

  test('a good payload is stored and served', async () => {
    const r = await live();
    assert.equal(r.status, 'done');
    assert.deepEqual(await bankRates(), { GBP: 0.865, JPY: 187.1, USD: 1.17 });
  });

  for (const [what, payload, reason] of FAULTS) {
    test(`rejects ${what}; the previous figures stay served`, async () => {
      body = payload;
      const version = await t.store.dataVersion();
      const r = await live();
      assert.equal(r.status, 'done');
      const outcome = r.status === 'done' ? r.outcomes[0]! : undefined;
      assert.equal(outcome?.status, 'failed');
      assert.match(outcome && 'reason' in outcome ? outcome.reason : '', reason);
      assert.equal(await t.store.dataVersion(), version, 'something was stored');
      assert.deepEqual(await bankRates(), { GBP: 0.865, JPY: 187.1, USD: 1.17 });
      const health = (await t.store.sourceHealth()).find((h) => h.source === 'ECBF')!;
      assert.ok(health.failures > 0);
      assert.match(health.lastError ?? '', reason);
    });
  }

  test('an HTTP error is a failed fetch, recorded, with the data unchanged', async () => {
    const failing = await startFeedServer(() => ({ status: 503, body: 'down' }));
    try {
      const r = await ingestLive({ store: t.store, http: createHttpClient({ retries: 1, backoffMs: 1 }), config: { sourceUrls: { ECBF: failing.url }, sourceKeys: {} }, now: () => NOW }, ecbf);
      assert.equal(r.status, 'fetch_failed');
      assert.match('reason' in r ? r.reason : '', /HTTP 503.*after 2 attempts/);
      assert.equal(failing.requests.length, 2);
      assert.deepEqual(await bankRates(), { GBP: 0.865, JPY: 187.1, USD: 1.17 });
    } finally {
      await failing.close();
    }
  });

  test('the same payload again changes nothing; the source recovers on the next good one', async () => {
    body = GOOD;
    const again = await live();
    assert.equal(again.status === 'done' && again.outcomes[0]!.status, 'duplicate');
    body = ecbDaily('2026-04-15', { USD: '1.1710', JPY: '187.20', GBP: '0.86600' });
    const next = await live();
    assert.equal(next.status === 'done' && next.outcomes[0]!.status, 'stored');
    assert.equal((await t.store.sourceHealth()).find((h) => h.source === 'ECBF')!.failures, 0);
    assert.deepEqual(await bankRates(), { GBP: 0.866, JPY: 187.2, USD: 1.171 });
  });
});
