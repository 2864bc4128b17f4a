// End to end: a local HTTP server plays every central bank, serving the recorded payloads at the
// feeds' own paths; live ingestion runs against it through the URL overrides; the API then answers
// /v1/bank/<code> with the published figures.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Decimal } from '../src/money/decimal.js';
import { ingestLive } from '../src/ingest/live.js';
import { createHttpClient } from '../src/sources/http.js';
import { SOURCES } from '../src/sources/index.js';
import { NoPublication, type Observation, type Source } from '../src/sources/types.js';
import { addDays } from '../src/time/days.js';
import { bankUpdate } from '../src/blend/rebase.js';
import { isKnownCode } from '../src/currencies/iso4217.js';
import { fixtureDir } from './support/fixtures.js';
import { testApp, type TestApp } from './helpers.js';
import { startFeedServer, type FeedServer } from './support/feed-server.js';

const FIXTURES_URL = fixtureDir();
const FIXTURES = fileURLToPath(FIXTURES_URL);
const TESTDATA = new URL('../src/sources/banks/testdata/', import.meta.url);
const NOW = new Date('2026-11-22T12:00:00Z');

const tokens = (text: string) => new Set(decodeURIComponent(text).toLowerCase().split(/[^a-z0-9]+/).filter((t) => t.length >= 2));
const payloadFiles = (s: Source) => (existsSync(`${FIXTURES}/${s.code}`) ? readdirSync(`${FIXTURES}/${s.code}`).filter((f) => s.accepts(f)).sort() : []);

const currencyCodes = (text: string) => [...tokens(text)].filter((t) => t.length === 3 && isKnownCode(t.toUpperCase()));

/**
 * Whether a request asks for something the recordings hold: a per-currency request (PTAX, Paraguay,
 * Rwanda…) for a currency nobody recorded is left out, as the recordings cannot answer it.
 */
function recorded(source: Source, url: string): boolean {
  const inFiles = new Set(payloadFiles(source).flatMap(currencyCodes));
  const asked = currencyCodes(new URL(url).search + new URL(url).pathname);
  // A month asked for by query (InforEuro's month=&year=: its answer does not say which month it
  // is) that no recording holds: another month's file would be read as this month's.
  const month = /[?&]month=(\d{1,2})&year=(\d{4})/.exec(url);
  if (month && !payloadFiles(source).some((f) => f.includes(`${month[2]}-${month[1]!.padStart(2, '0')}`))) return false;
  return inFiles.size === 0 || asked.length === 0 || asked.some((c) => inFiles.has(c));
}

/**
 * First pages of feeds that need a page visit first (a form with its ViewState or anti-forgery
 * token, a CSRF token answer), served at the page's path with a session cookie: hand-written,
 * format-faithful copies in testdata/ where the recordings lack the page, the recorded page itself
 * where there is one (`recorded`). Like the banks, the server then refuses the data requests that do
 * not carry the page's token and cookie back.
 */
const STEP_PAGES: Readonly<Record<string, { path: string; file: string; token: string; recorded?: true }>> = {
  INDO: { path: '/en/statistik/informasi-kurs/transaksi-bi/default.aspx', file: 'INDO-form.html', token: 'test-viewstate-INDO' },
  MASG: { path: '/statistics/msb/ExchangeRates.aspx', file: 'MASG-form.html', token: 'test-eventvalidation-MASG' },
  CBEG: { path: '/en/economic-research/statistics/cbe-exchange-rates/historical-data', file: 'CBEG-form.html', token: 'test-antiforgery-token-CBEG' },
  NBSR: { path: '/kursnaListaModul/naZeljeniDan.faces', file: 'NBSR-form.html', token: 'test-viewstate-NBSR' },
  BCCR: { path: '/Bccr.GE.SDDE.IndicadoresSitioExterno.ServiciosUsuario.API/Token/GenereCSRF', file: 'BCCR-GenereCSRF.json', token: 'dGVzdC1zaWduYXR1cmUtQkNDUg' },
  PMAP: { path: '/ar/webtools/currency/export', file: 'currency-export-form.html', token: 'NEx1U21pRWRmZG80SmR4blZodlVhdz09', recorded: true },
};
const SESSION = (code: string) => `kurs-e2e-session=${code}`;

/** Recorded files for paths whose words cannot tell them apart (one path answering two formats by
 *  a request header: BCCG's landing page is its RSC stream when asked with `RSC: 1`). */
const FILE_FOR: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  BCCG: { '/marche-des-changes/cours-de-change': 'cours-de-change-rsc.txt' },
};

/** The recorded file that best answers a request: the one sharing most words with its URL. */
function bestFile(source: Source, pathAndQuery: string): string | undefined {
  const wanted = tokens(pathAndQuery);
  let best: string | undefined;
  let score = -1;
  for (const f of payloadFiles(source)) {
    const s = [...tokens(f)].filter((t) => wanted.has(t)).length;
    if (s > score) [best, score] = [f, s];
  }
  return best;
}

/** What a source reads from a recorded file answering `name`; nothing for a page without rates by design. */
async function parseOrNothing(source: Source, name: string, file: string): Promise<Observation[]> {
  try {
    return await source.parse({ name, body: readFileSync(`${FIXTURES}/${source.code}/${file}`) });
  } catch (err) {
    if (err instanceof NoPublication) return [];
    throw err;
  }
}

describe('live ingestion against a local server playing every bank', () => {
  let server: FeedServer;
  let t: TestApp;
  let key: string;
  /** Per source, what the server answered: the request (as the payload name) and the file it sent. */
  const served = new Map<string, { url: string; file: string }[]>();
  /** Sources for which the server sent at least one payload with rates in it. */
  const hasRates = new Set<string>();
  const sources = SOURCES.filter((s) => payloadFiles(s).length > 0);

  /** Each source is fetched as if just after its newest recorded day, so that its requests ask for
   *  the period its recordings cover (a year, a month, a date in the query). */
  const nowFor = new Map<string, Date>();
  before(async () => {
    for (const s of sources) {
      let newest = '';
      for (const file of payloadFiles(s)) {
        for (const o of await parseOrNothing(s, file, file)) if (o.date > newest) newest = o.date;
      }
      nowFor.set(s.code, new Date(`${addDays(newest, 1)}T23:00:00Z`));
    }
    server = await startFeedServer((pathAndQuery, req) => {
      const [, code, ...rest] = pathAndQuery.split('/');
      const step = code === undefined ? undefined : STEP_PAGES[code];
      if (step && req.method === 'GET' && `/${rest.join('/')}` === step.path) {
        const body = readFileSync(step.recorded ? `${FIXTURES}/${code}/${step.file}` : new URL(step.file, TESTDATA));
        return { body, contentType: 'text/html; charset=utf-8', headers: { 'set-cookie': `${SESSION(code!)}; path=/; HttpOnly` } };
      }
      const carried = `${req.body} ${JSON.stringify(req.headers)}`;
      if (step && !(carried.includes(encodeURIComponent(step.token)) && req.headers.cookie === SESSION(code!))) return { status: 403, body: 'no session' };
      const source = SOURCES.find((s) => s.code === code);
      const file = source && (FILE_FOR[source.code]?.[`/${rest.join('/')}`.split('?')[0]!] ?? bestFile(source, rest.join('/')));
      if (!source || !file) return undefined;
      served.set(source.code, [...(served.get(source.code) ?? []), { url: `${server.url}${pathAndQuery}`, file }]);
      return { body: readFileSync(`${FIXTURES}/${source.code}/${file}`) };
    });
    // Every source on, those whose terms keep them off by default too (D22): each is played here.
    t = await testApp({ now: NOW, seeded: false, enable: SOURCES.map((s) => s.code) });
    ({ key } = await t.key({ plan: 'business', points: 1000 }));
  });
  after(async () => {
    await t?.close();
    await server?.close();
  });

  test('every source with recorded payloads is fetched and ingested through its URL override', async () => {
    const config = {
      sourceUrls: Object.fromEntries(sources.map((s) => [s.code, `${server.url}/${s.code}`])),
      sourceKeys: Object.fromEntries(sources.map((s) => [s.code, 'test-key'])),
    };
    // A long timeout: the whole bank plays in this one process, and reading a large workbook blocks
    // the server as well as the client for seconds on a loaded machine.
    const http = createHttpClient({ retries: 0, timeoutMs: 180_000 });
    const results = await Promise.all(
      sources.map((s) => {
        const replayable: Source = {
          ...s,
          requests: (w, ctx) => s.requests(w, ctx).filter((r) => r.follow || recorded(s, r.url)),
          ...(s.follow ? { follow: (page, w, ctx) => s.follow!(page, w, ctx).filter((r) => r.follow || recorded(s, r.url)) } : {}),
        };
        return ingestLive({ store: t.store, http, config, now: () => nowFor.get(s.code)! }, replayable, { acceptJumps: true });
      }),
    );
    // Which sources were sent rates, read after the fetches so as not to stall the server meanwhile.
    for (const [code, answers] of served) {
      const source = SOURCES.find((x) => x.code === code)!;
      for (const { url, file } of answers) if ((await parseOrNothing(source, url, file).catch(() => [])).length > 0) hasRates.add(code);
    }
    for (const r of results) {
      assert.equal(r.status, 'done', `${r.source}: ${'reason' in r ? r.reason : ''}`);
      if (r.status !== 'done') continue;
      const failed = r.outcomes.filter((o) => o.status === 'failed');
      assert.deepEqual(failed, [], r.source);
      assert.ok(r.outcomes.some((o) => o.status === 'stored') || !hasRates.has(r.source), `${r.source} stored nothing`);
    }
    // The feeds that need a page visit first fetched it, then sent its token and cookie back.
    for (const code of Object.keys(STEP_PAGES)) {
      const own = server.requests.filter((r) => r.url.startsWith(`/${code}/`));
      assert.equal(own[0]?.method, 'GET', code);
      assert.equal(own[0]?.url, `/${code}${STEP_PAGES[code]!.path}`, code);
      assert.ok(own.length > 1 && own.slice(1).every((r) => r.headers.cookie === SESSION(code)), `${code} did not carry its session`);
      assert.ok(hasRates.has(code), `${code} got no rates`);
    }
    // Every source with a follow step was fetched in two steps at least: its page, then what it led to.
    for (const s of sources.filter((x) => x.follow)) {
      const own = server.requests.filter((r) => r.url.startsWith(`/${s.code}/`));
      const first = s.requests({ from: '2026-01-01', to: '2026-01-02' }, { base: `${server.url}/${s.code}` })[0]!;
      assert.equal(first.follow, true, s.code);
      assert.equal(`${server.url}${own[0]?.url}`, first.url, s.code);
      assert.ok(own.length > 1, `${s.code} did not follow its page`);
    }
    for (const s of sources.filter((x) => x.needsKey)) {
      const own = server.requests.filter((r) => r.url.startsWith(`/${s.code}/`));
      assert.ok(own.some((r) => `${r.url} ${JSON.stringify(r.headers)} ${r.body}`.includes('test-key')), `${s.code} did not send its key`);
    }
    await t.market.rebuild(NOW);
  });

  test('the API answers /v1/bank/<code> with the figures each bank published', async () => {
    for (const source of sources.filter((s) => hasRates.has(s.code))) {
      const published = new Map<string, Observation>();
      // What the bank published is what the server sent, read as the answer to the request it was.
      for (const { url, file } of served.get(source.code) ?? []) {
        for (const o of await parseOrNothing(source, url, file)) {
          const seen = published.get(o.quote);
          if (!seen || o.date >= seen.date) published.set(o.quote, o);
        }
      }
      // A period source (D21) answers the figures in force on a day: the first day of its newest period.
      const newestPeriod = [...published.values()].reduce((m, o) => (o.date > m ? o.date : m), '');
      const url = source.periodRates ? `/v1/bank/${source.code}?format=full&date=${newestPeriod}` : `/v1/bank/${source.code}?format=full`;
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: key } });
      assert.equal(res.statusCode, 200, `${source.code}: ${res.body}`);
      const rows = res.json().rates as { currency: string; rate: number; bank_update: string }[];
      assert.ok(rows.length > 0, `${source.code} has no rows`);
      let checked = 0;
      for (const row of rows) {
        const o = published.get(row.currency);
        if (!o) continue;
        // The default direction is the bank's base per 1 unit: exact where the bank published it so.
        const perUnit = new Decimal(o.rate).div(o.unit);
        const expected = o.direction === 'direct' ? perUnit : new Decimal(1).div(perUnit).toSignificantDigits(8);
        assert.equal(new Decimal(String(row.rate)).toString(), expected.toString(), `${source.code} ${row.currency}`);
        assert.equal(row.bank_update, source.periodRates ? `${o.date} 00:00:00` : bankUpdate(source, o.date), `${source.code} ${row.currency}`);
        checked++;
      }
      assert.ok(checked > 0, `${source.code}: no row matched a published figure`);
    }
  });
});
