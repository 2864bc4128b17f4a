// D22: a source whose terms forbid commercial use is off unless the operator names it in
// KURS_ENABLE_SOURCES: not fetched, not ingested, not blended, not listed. A test-only source (ECBF's
// adapter under a code of its own, with non-commercial terms) stands in for CBBS, CBTT and PMAP.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createKey } from '../src/access/accounts.js';
import { BatchMeter } from '../src/access/meter.js';
import { ConfigError, ENDPOINT_IDS, type EndpointId, loadConfig } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { ingestDir } from '../src/ingest/ingest.js';
import { Scheduler } from '../src/ingest/scheduler.js';
import { loadSeed } from '../src/ingest/seed.js';
import { Market } from '../src/rates/market.js';
import { enabledSources } from '../src/sources/enabled.js';
import { createHttpClient } from '../src/sources/http.js';
import { SOURCES, sourceByCode } from '../src/sources/index.js';
import type { Source } from '../src/sources/types.js';
import { openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { tempDb } from './helpers.js';
import { startFeedServer, type FeedServer } from './support/feed-server.js';

const NOW = new Date('2026-04-15T18:00:00Z');
const ECB_DAY = (date: string, usd: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='${date}'><Cube currency='USD' rate='${usd}'/></Cube></Cube></gesmes:Envelope>`;
const ecbf = sourceByCode('ECBF')!;
const NONCOM: Source = { ...ecbf, code: 'NCOM', name: 'A bank for personal use only', terms: 'non-commercial', termsUrl: 'https://bank.example/terms' };
const PERSONAL: Source = { ...ecbf, code: 'PERS', name: 'Another', terms: 'personal-use', termsUrl: 'https://bank.example/terms' };
const REGISTRY: readonly Source[] = [...SOURCES, NONCOM, PERSONAL];
const pointsCost = Object.fromEntries(ENDPOINT_IDS.map((id) => [id, 1])) as Record<EndpointId, number>;

test('enabledSources: terms that forbid commercial use keep a source off unless named; an unknown name stops the boot', () => {
  const codes = (named: string[]) => enabledSources(REGISTRY, named).map((s) => s.code);
  const on = SOURCES.filter((s) => s.terms !== 'non-commercial' && s.terms !== 'personal-use').map((s) => s.code);
  assert.deepEqual(codes([]), on);
  assert.deepEqual(codes(['NCOM']), [...on, 'NCOM']);
  assert.deepEqual(codes(['PERS', 'NCOM', 'ECBF']), [...on, 'NCOM', 'PERS']);
  // The registry's own non-commercial sources (wave 4), on only when named.
  assert.deepEqual(SOURCES.map((s) => s.code).filter((c) => !on.includes(c)), ['CBBS', 'CBTT', 'PMAP']);
  assert.deepEqual(enabledSources(SOURCES, ['CBTT']).map((s) => s.code).filter((c) => !on.includes(c)), ['CBTT']);
  assert.throws(() => enabledSources(REGISTRY, ['NCOM', 'NOPE']), (err: unknown) => err instanceof ConfigError && /KURS_ENABLE_SOURCES names NOPE: no such source; the sources are AFGB, .*ECBF, .*NCOM, PERS$/.test(err.problems[0]!));
  // Every registered source states its terms.
  for (const s of SOURCES) assert.match(s.terms, /^(open|attribution|non-commercial|personal-use|permission-required|unknown)$/, s.code);
});

test('KURS_ENABLE_SOURCES: codes separated by commas, any case; a malformed one stops the boot', () => {
  assert.deepEqual(loadConfig({ KURS_ENABLE_SOURCES: ' cbbs, CBTT,cbbs ' }).enableSources, ['CBBS', 'CBTT']);
  assert.deepEqual(loadConfig({}).enableSources, []);
  assert.throws(() => loadConfig({ KURS_ENABLE_SOURCES: 'CBBS,CB-TT' }), /KURS_ENABLE_SOURCES lists source codes like CBBS,CBTT; got "CB-TT"/);
});

describe('a non-commercial source, off by default and on by name', () => {
  let server: FeedServer;
  const fetched = () => server.requests.filter((r) => r.url.startsWith('/ncom')).length;
  before(async () => {
    server = await startFeedServer((path) => (path.startsWith('/ncom') ? { body: ECB_DAY('2026-04-15', '1.1702') } : undefined));
  });
  after(() => server.close());

  /** A server's parts as `kurs serve` builds them from KURS_ENABLE_SOURCES (`named`), on a fresh database. */
  async function start(named: string[]) {
    const db = tempDb();
    const store: Store = openSqlite(db.path);
    await store.migrate();
    const sources = enabledSources(REGISTRY, named);
    const off = REGISTRY.filter((s) => !sources.includes(s));
    // The seed holds an old figure of the source: loaded only when it is on, and stale, so a start
    // that uses the source fetches it at once (the scheduler's catch-up).
    await loadSeed(store, sources, { about: '', sources: [{ source: 'NCOM', provenance: [], rows: [['2026-04-01', 'USD', '1.1690', 1, 'indirect', '']] }] }, NOW);
    const scheduler = new Scheduler({
      store, sources: sources.filter((s) => s.code === 'NCOM' || s.code === 'PERS'), http: createHttpClient({ retries: 0 }),
      config: { sourceUrls: { NCOM: `${server.url}/ncom`, PERS: `${server.url}/pers` }, sourceKeys: {} }, now: () => NOW, onData: async () => {}, log: { info: () => undefined, warn: () => undefined },
    });
    await scheduler.catchUp();
    await scheduler.stop();
    // `kurs ingest --from-dir` on a folder holding its recording.
    const dir = mkdtempSync(join(tmpdir(), 'kurs-enabled-'));
    for (const code of ['NCOM', 'ECBF']) mkdirSync(join(dir, code));
    writeFileSync(join(dir, 'NCOM', 'eurofxref-daily.xml'), ECB_DAY('2026-04-13', '1.1684'));
    writeFileSync(join(dir, 'ECBF', 'eurofxref-daily.xml'), ECB_DAY('2026-04-15', '1.1700'));
    const imported = await ingestDir(store, sources, dir, () => NOW);
    rmSync(dir, { recursive: true, force: true });
    const market = new Market(store, sources, 0);
    await market.rebuild(NOW);
    const app = buildApp({ store, meter: new BatchMeter(store), market, sources, off, pointsCost, now: () => NOW, logLevel: 'silent' });
    const { key } = await createKey(store, { plan: 'professional', points: 1000 }, NOW);
    const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: key } });
    return { store, app, get, imported, market, close: async () => { await app.close(); await store.close(); db.cleanup(); } };
  }

  test('by default: not fetched, not imported, not loaded from the seed, not listed, not blended; its bank answer says why and how', async () => {
    const s = await start([]);
    try {
      assert.equal(fetched(), 0, 'the scheduler fetched it');
      assert.deepEqual(s.imported.unknownFolders, ['NCOM']);
      assert.deepEqual(s.imported.outcomes.map((o) => `${o.source} ${o.status}`), ['ECBF stored']);
      assert.equal((await s.store.sourceHealth()).find((h) => h.source === 'NCOM'), undefined, 'nothing of it was stored');
      const banks = (await s.get('/v1/banks')).json().banks as { bank_code: string }[];
      assert.deepEqual(banks.map((b) => b.bank_code), enabledSources(SOURCES, []).map((s) => s.code));
      assert.ok(!banks.some((b) => b.bank_code === 'NCOM' || b.bank_code === 'PERS'));
      const full = (await s.get('/v1/banks?format=full')).json().banks as { bank_code: string }[];
      assert.ok(!full.some((b) => b.bank_code === 'NCOM'));
      const bank = await s.get('/v1/bank/NCOM');
      assert.equal(bank.statusCode, 404);
      assert.equal(bank.json().message, 'NCOM is off on this server: its terms (non-commercial, https://bank.example/terms) do not allow commercial use; an operator entitled to use it turns it on with KURS_ENABLE_SOURCES=NCOM');
      assert.equal((await s.get('/v1/bank/NCOM/timeseries?start=2026-04-13&end=2026-04-15')).json().message, bank.json().message);
      assert.equal((await s.get('/v1/bank/ZZZZ')).json().message, 'no bank ZZZZ; GET /v1/banks lists them');
      assert.doesNotMatch((await s.app.inject('/status')).body, /NCOM/);
      assert.doesNotMatch((await s.app.inject('/metrics')).body, /NCOM/);
      assert.deepEqual(s.market.current.rates.get('EUR')!.contributions.map((c) => c.source), ['ECBF']);
    } finally {
      await s.close();
    }
  });

  test('named in KURS_ENABLE_SOURCES: fetched, imported, listed, served and blended', async () => {
    const s = await start(['NCOM']);
    try {
      assert.equal(fetched(), 1);
      assert.deepEqual(s.imported.outcomes.map((o) => `${o.source} ${o.status}`), ['ECBF stored', 'NCOM stored']);
      const banks = (await s.get('/v1/banks')).json().banks as { bank_code: string }[];
      assert.ok(banks.some((b) => b.bank_code === 'NCOM'));
      assert.ok(!banks.some((b) => b.bank_code === 'PERS'), 'only the source named is on');
      const full = ((await s.get('/v1/banks?format=full')).json().banks as { bank_code: string; terms: string; newest_date: string }[]).find((b) => b.bank_code === 'NCOM')!;
      assert.deepEqual([full.terms, full.newest_date], ['non-commercial', '2026-04-15']);
      const bank = await s.get('/v1/bank/NCOM?format=full&reciprocal=true');
      assert.equal(bank.statusCode, 200);
      assert.deepEqual(bank.json().rates.map((r: { currency: string; rate: number }) => [r.currency, r.rate]), [['USD', 1.1702]]);
      assert.match((await s.app.inject('/status')).body, /id="src-NCOM"/);
      assert.deepEqual(s.market.current.rates.get('EUR')!.contributions.map((c) => c.source).sort(), ['ECBF', 'NCOM']);
    } finally {
      await s.close();
    }
  });
});

test('docs/data.md lists every source under the terms its adapter states', () => {
  const text = readFileSync(new URL('../docs/data.md', import.meta.url), 'utf8');
  const table = text.slice(text.indexOf('| terms | sources |'));
  const listed = new Map<string, string[]>();
  for (const [, terms, codes] of table.matchAll(/^\| `([a-z-]+)`[^|]*\| ([^|]+) \|$/gm)) listed.set(terms!, codes!.includes('every other source') ? [] : [...codes!.matchAll(/\b[A-Z]{4}\b/g)].map((m) => m[0]));
  for (const terms of new Set(SOURCES.map((s) => s.terms))) {
    const codes = SOURCES.filter((s) => s.terms === terms).map((s) => s.code);
    if (terms === 'unknown') assert.deepEqual(listed.get('unknown'), [], 'the unknown row says "every other source"');
    else assert.deepEqual(listed.get(terms), codes, `docs/data.md's ${terms} row`);
  }
});
