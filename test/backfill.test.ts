// `kurs backfill` against a local server playing the banks with their recorded payloads: the ECB's
// whole history in one request, idempotent re-runs, the estimate and the yes a day-by-day feed needs,
// and one request at a time per host.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { estimate, PER_DAY_CHUNK_DAYS, planBackfill, runBackfill } from '../src/ingest/backfill.js';
import { BROWSER_USER_AGENT, createHttpClient } from '../src/sources/http.js';
import { sourceByCode } from '../src/sources/index.js';
import type { Source } from '../src/sources/types.js';
import { openSqlite } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { tempDb } from './helpers.js';
import { fixtureDir } from './support/fixtures.js';
import { startFeedServer, type FeedServer } from './support/feed-server.js';
import { BIN } from './support/server-process.js';

const FIXTURES_URL = fixtureDir();
const FIXTURES = fileURLToPath(FIXTURES_URL);
const ECB_ZIP = `${FIXTURES}/ECBF/eurofxref-hist-2026-04-13.zip`;
const CBTU_DAY = `${FIXTURES}/CBTU/cbt-kurs-20052026.xml`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('kurs backfill', () => {
  let server: FeedServer;
  const db = tempDb();
  before(async () => {
    server = await startFeedServer({
      '/ECBF/eurofxref-hist.zip': { body: readFileSync(ECB_ZIP) },
      '/CBTU/kurs/2026/20052026.xml': { body: readFileSync(CBTU_DAY) },
    });
  });
  after(async () => {
    await server.close();
    db.cleanup();
  });

  /** Asynchronous, so the feed server in this process keeps answering; stdout is a pipe, not a TTY. */
  const kurs = (...args: string[]): Promise<Run> => kursWith({}, ...args);
  const kursWith = (extra: Record<string, string>, ...args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      const env = { ...process.env, KURS_DATABASE_URL: db.url, KURS_SOURCE_ECBF_URL: `${server.url}/ECBF`, KURS_SOURCE_CBTU_URL: `${server.url}/CBTU`, ...extra };
      const child = execFile(process.execPath, [BIN, 'backfill', ...args], { env, encoding: 'utf8' }, (_err, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }));
    });
  const asked = (prefix: string) => server.requests.filter((r) => r.url.startsWith(prefix)).length;

  const withStore = async <T>(fn: (store: Store) => Promise<T>): Promise<T> => {
    const store = openSqlite(db.path);
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  };

  test('fetches the ECB\'s whole history in one request and stores every day of it', async () => {
    const run = await kurs('ECBF', '--from', '1999-01-04', '--to', '2026-04-13');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(asked('/ECBF/'), 1);
    const m = /^ECBF: 1 request, 1 payload: (\d+) new, 0 revised \(0 already imported\)$/m.exec(run.stdout);
    assert.ok(m, run.stdout);
    assert.ok(Number(m[1]) > 150_000, m[1]);
    await withStore(async (store) => {
      // The ECB's first reference rates, 4 January 1999: USD 1.1789, JPY 133.73.
      const first = new Map((await store.previousRates('ECBF', '1999-01-05')).map((r) => [r.quote, r]));
      assert.equal(first.get('USD')?.rate, '1.1789');
      assert.equal(first.get('USD')?.date, '1999-01-04');
      assert.equal(first.get('JPY')?.rate, '133.73');
    });
  });

  test('a second run changes nothing', async () => {
    const before = await withStore((store) => store.dataVersion());
    const run = await kurs('ECBF', '--from', '1999-01-04', '--to', '2026-04-13');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ECBF: 1 request, 1 payload: nothing new \(1 already imported\)$/m);
    assert.equal(await withStore((store) => store.dataVersion()), before);
  });

  test('a day-by-day feed over years: an estimate, and without --yes off a terminal nothing is fetched', async () => {
    const run = await kurs('CBTU', '--from', '2020-01-01', '--to', '2026-05-21');
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^CBTU serve one day per request: 2333 requests, about 39 min at one request a second per host\.$/m);
    assert.match(run.stderr, /more than 500 requests: run again with --yes/);
    assert.equal(asked('/CBTU/'), 0);
  });

  test('a short day-by-day window runs without asking: a request per day, the 404 days skipped', async () => {
    const run = await kurs('CBTU', '--from', '2026-05-15', '--to', '2026-05-21');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(asked('/CBTU/'), 7);
    assert.match(run.stdout, /^CBTU: 7 requests, 1 payload: \d+ new, 0 revised \(0 already imported\)$/m);
    // The source's own headers go with a backfill's requests as with its polls: CBTU's firewall
    // wants a browser's User-Agent (LIVE-DRIFT), not Kurs's.
    const agents = new Set(server.requests.filter((r) => r.url.startsWith('/CBTU/')).map((r) => r.headers['user-agent']));
    assert.deepEqual([...agents], [BROWSER_USER_AGENT]);
  });

  test('the operator\'s feed limit holds for a backfill too: an answer over it fails, naming the limit', async () => {
    const before = await withStore((store) => store.dataVersion());
    const run = await kursWith({ KURS_FEED_MAX_BYTES: '1024' }, 'ECBF', '--from', '1999-01-04', '--to', '2026-04-13');
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /^ECBF: FETCH FAILED after 1 request, 0 payloads: answer from \S+ is larger than the feed limit of 1024 bytes \(KURS_FEED_MAX_BYTES\)$/m);
    assert.equal(await withStore((store) => store.dataVersion()), before);
  });

  test('rejects a malformed or future date and an unknown bank, fetching nothing', async () => {
    const before = server.requests.length;
    for (const args of [['--from', '2020-02-30'], ['--from', '2020-01-01', '--to', '2999-01-01'], ['XXXX', '--from', '2020-01-01']]) {
      const run = await kurs(...args);
      assert.equal(run.code, 1, args.join(' '));
      assert.match(run.stderr, /^kurs: /, args.join(' '));
    }
    assert.equal(server.requests.length, before);
  });
});

describe('backfill politeness', () => {
  test('one request at a time per host, hosts side by side', async () => {
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    let overall = 0;
    let mostOverall = 0;
    const server = await startFeedServer(() => ({ body: '' }));
    const other = await startFeedServer(() => ({ body: '' }));
    // A slow bank: each answer takes 30 ms, so overlapping requests would be seen.
    const slow = createHttpClient({ retries: 0 });
    const http = async (request: Parameters<typeof slow>[0]) => {
      const host = new URL(request.url).host;
      inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
      most.set(host, Math.max(most.get(host) ?? 0, inFlight.get(host)!));
      mostOverall = Math.max(mostOverall, ++overall);
      await new Promise((r) => setTimeout(r, 30));
      try {
        return await slow(request);
      } finally {
        inFlight.set(host, inFlight.get(host)! - 1);
        overall--;
      }
    };
    const db = tempDb();
    const store = openSqlite(db.path);
    try {
      await store.migrate();
      const cbtu = sourceByCode('CBTU')!;
      const fake = (code: string): Source => ({ ...cbtu, code, requests: (_w, ctx) => [1, 2, 3].map((i) => ({ url: `${ctx.base}/${code}/${i}` })), parse: () => [] });
      const sourceUrls = { AAAA: server.url, BBBB: server.url, CCCC: other.url };
      const { plans } = planBackfill([fake('AAAA'), fake('BBBB'), fake('CCCC')], { from: '2026-01-01', to: '2026-03-31' }, { sourceUrls, sourceKeys: {} });
      const results = await runBackfill(plans, { store, http, now: () => new Date('2026-04-01T00:00:00Z') });
      assert.deepEqual(results.map((r) => [r.source, r.requests, r.payloads]), [['AAAA', 3, 3], ['BBBB', 3, 3], ['CCCC', 3, 3]]);
      assert.deepEqual([...most.entries()].sort(), [[new URL(server.url).host, 1], [new URL(other.url).host, 1]].sort());
      assert.equal(mostOverall, 2);
    } finally {
      await store.close();
      db.cleanup();
      await server.close();
      await other.close();
    }
  });
});

describe('backfill of the Bank of Israel and CBAR (ISRA, NABZ)', () => {
  const isra = sourceByCode('ISRA')!;
  const nabz = sourceByCode('NABZ')!;
  const YEARS = { from: '2000-01-03', to: '2026-11-20' };

  test('planned for 27 years: ISRA one SDMX request, NABZ one bulletin a day in 31-day chunks, estimated first', () => {
    const { plans } = planBackfill([isra, nabz], YEARS, { sourceUrls: {}, sourceKeys: {} });
    const [i, n] = plans;
    assert.deepEqual([i!.host, i!.requests, i!.perDay, i!.windows], ['edge.boi.gov.il', 1, false, [YEARS]]);
    assert.deepEqual([n!.host, n!.requests, n!.perDay], ['www.cbar.az', 9819, true]);
    assert.equal(n!.windows.length, Math.ceil(9819 / PER_DAY_CHUNK_DAYS));
    assert.deepEqual([n!.windows[0], n!.windows.at(-1)!.to], [{ from: '2000-01-03', to: '2000-02-02' }, '2026-11-20']);
    assert.deepEqual(estimate(plans), { requests: 9819, seconds: 9819, sources: ['NABZ'] });
  });

  test('runs against a server playing both banks: what was published is stored, the days without it skipped', async () => {
    const sdmx = readFileSync(new URL('../src/sources/banks/testdata/ISRA-EXR.csv', import.meta.url));
    const bulletin = readFileSync(new URL('currencies-02.10.2026.xml', fixtureDir('NABZ')));
    const server = await startFeedServer((path) => {
      if (path.startsWith('/ISRA/') && path.includes('startperiod=2014-05-26&endperiod=2014-06-01')) return { body: sdmx, contentType: 'text/csv' };
      if (path === '/NABZ/currencies/02.10.2026.xml') return { body: bulletin, contentType: 'text/xml' };
      return undefined;
    });
    const db = tempDb();
    const store = openSqlite(db.path);
    try {
      await store.migrate();
      const sourceUrls = { ISRA: `${server.url}/ISRA`, NABZ: `${server.url}/NABZ` };
      const now = () => new Date('2026-11-22T12:00:00Z');
      const run = async () => {
        const one = (code: string, window: { from: string; to: string }) => planBackfill([sourceByCode(code)!], window, { sourceUrls, sourceKeys: {} }).plans;
        const plans = [...one('ISRA', { from: '2014-05-26', to: '2014-06-01' }), ...one('NABZ', { from: '2026-09-30', to: '2026-10-04' })];
        return (await runBackfill(plans, { store, http: createHttpClient({ retries: 0 }), now })).map((r) => [r.source, r.requests, r.payloads, r.inserted, r.already, r.failed.length, r.fetchError]);
      };
      assert.deepEqual(await run(), [['ISRA', 1, 1, 14, 0, 0, undefined], ['NABZ', 5, 1, 42, 0, 0, undefined]]);
      assert.deepEqual(await run(), [['ISRA', 1, 1, 0, 1, 0, undefined], ['NABZ', 5, 1, 0, 1, 0, undefined]]);
      const stored = new Map((await store.previousRates('ISRA', '2014-05-31')).map((r) => [r.quote, r]));
      assert.deepEqual([stored.get('USD')?.rate, stored.get('JPY')?.rate, stored.get('USD')?.date], ['3.475', '0.034188', '2014-05-30']);
      const azn = new Map((await store.previousRates('NABZ', '2026-10-03')).map((r) => [r.quote, r]));
      assert.deepEqual([azn.get('USD')?.rate, azn.get('XDR')?.rate, azn.get('RUB')?.rate], ['1.7', '2.3051', '0.020186']);
    } finally {
      await store.close();
      db.cleanup();
      await server.close();
    }
  });
});
