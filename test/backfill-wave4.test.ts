// `kurs backfill`'s engine on the seven daily banks of wave 4, each against a local server playing
// its feed with the recorded answers (forms, POSTs, per-currency calls, RSC header, 404 days): every
// figure of the window is stored, and a second run stores nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { planBackfill, runBackfill, type BackfillResult } from '../src/ingest/backfill.js';
import { createHttpClient } from '../src/sources/http.js';
import { sourceByCode } from '../src/sources/index.js';
import type { FetchWindow } from '../src/sources/types.js';
import { openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { tempDb } from './helpers.js';
import { fixtureDir } from './support/fixtures.js';
import { startFeedServer, type FeedRoute, type FeedServer, type FeedServerRequest } from './support/feed-server.js';

const file = (code: string, name: string): FeedRoute => ({ body: readFileSync(new URL(name, fixtureDir(code))) });
const FORM = readFileSync(new URL('currency-export-form.html', fixtureDir('PMAP')), 'utf8');

/** Per bank: the window asked for, how the local server answers its requests, and the figures stored. */
const BANKS: Record<string, { window: FetchWindow; answer: (path: string, req: FeedServerRequest) => FeedRoute | undefined; figures: number }> = {
  CRPE: { window: { from: '2026-09-01', to: '2026-09-08' }, answer: (p) => (p === '/estadisticas/series/api/PD04639PD-PD04640PD/json/2026-09-01/2026-09-08/ing' ? file('CRPE', 'PD04639PD-PD04640PD-2026-09-01-2026-09-08.json') : undefined), figures: 5 },
  CBTT: { window: { from: '2026-01-01', to: '2026-09-08' }, answer: (p) => (p === '/wp-json/rates/v1/forex-rate/2026-2026' ? file('CBTT', 'forex-rate-2026-2026.json') : undefined), figures: 1202 },
  // 1998's two lists, then a year without one (the 404 of an empty range).
  CBBS: { window: { from: '1998-01-06', to: '1999-01-01' }, answer: (p) => (p === '/CurrencyExchange/GetJsonForPeriod?dateFrom=1998-01-06&dateTo=1998-12-31' ? file('CBBS', 'GetJsonForPeriod-1998-01-06-1998-01-08.json') : { status: 404, ...file('CBBS', 'GetJsonForPeriod-2025-01-05-2025-01-06-404.json') }), figures: 44 },
  REPU: { window: { from: '2026-09-21', to: '2026-09-23' }, answer: (_p, req) => (req.method === 'POST' ? file('REPU', `cours_mid_en_ar_filter-${new URLSearchParams(req.body).get('filterData')}-2026-09-21-2026-09-23.json`) : undefined), figures: 57 },
  // The stream (whole basket, 2026-09-01..04) and the dated pages before September 2025: one page
  // recorded (served for 2025-08-29), the other days 404.
  BCCG: { window: { from: '2025-08-25', to: '2025-09-02' }, answer: (p, req) => (p === '/marche-des-changes/cours-de-change' && req.headers.rsc === '1' ? file('BCCG', 'cours-de-change-rsc.txt') : p === '/marche-des-changes/cours-de-change/2025-08-29' ? file('BCCG', 'cours-de-change-2026-09-02.html') : undefined), figures: 84 + 10 },
  PBOC: { window: { from: '2026-09-01', to: '2026-09-04' }, answer: (p, req) => (req.method === 'POST' && p.includes('startDate=2026-09-01&endDate=2026-09-04') ? file('PBOC', 'CcprHisNew-2026-09-01-2026-09-04-p1.json') : undefined), figures: 100 },
  PMAP: { window: { from: '2026-09-01', to: '2026-09-08' }, answer: (p, req) => (p !== '/ar/webtools/currency/export' ? undefined : req.method === 'GET' ? { body: FORM, headers: { 'set-cookie': 'PHPSESSID=wave4; path=/' } } : req.headers.cookie === 'PHPSESSID=wave4' && req.body.startsWith('alUxYVk1TC80KzVQcXZtdEUyREtudz09=') ? file('PMAP', 'pma-currencies-ar-2026-09-01-2026-09-08.xlsx') : { status: 403, body: 'no session' }), figures: 132 },
};

describe('backfill of the wave-4 daily banks against their recorded feeds', () => {
  let server: FeedServer;
  let store: Store;
  const db = tempDb();
  before(async () => {
    server = await startFeedServer((pathAndQuery, req) => {
      const [, code, ...rest] = pathAndQuery.split('/');
      return BANKS[code ?? '']?.answer(`/${rest.join('/')}`, req);
    });
    store = openSqlite(db.path);
    await store.migrate();
  });
  after(async () => {
    await store.close();
    await server.close();
    db.cleanup();
  });

  const run = (): Promise<BackfillResult[]> => {
    const plans = Object.entries(BANKS).flatMap(([code, bank]) => planBackfill([sourceByCode(code)!], bank.window, { sourceUrls: { [code]: `${server.url}/${code}` }, sourceKeys: {} }).plans);
    return runBackfill(plans, { store, http: createHttpClient({ retries: 0 }), now: () => new Date('2026-09-30T00:00:00Z') });
  };

  test('every figure of each window is stored, nothing fails', async () => {
    const results = await run();
    assert.deepEqual(results.map((r) => [r.source, r.fetchError, r.failed, r.inserted]), Object.entries(BANKS).map(([code, bank]) => [code, undefined, [], bank.figures]));
    // BCCG went day by day for the days before September 2025: the stream and five weekday pages.
    assert.equal(results.find((r) => r.source === 'BCCG')!.requests, 6);
    assert.equal(results.find((r) => r.source === 'REPU')!.requests, 19);
    assert.equal(results.find((r) => r.source === 'PMAP')!.requests, 2);
  });

  test('a second run stores nothing new', async () => {
    const results = await run();
    for (const r of results) {
      assert.equal(r.inserted + r.revised, 0, r.source);
      assert.equal(r.already, r.payloads, r.source);
    }
  });
});
