// `kurs ingest` (live, through the URL overrides) and `kurs sources --json`, run as the operator runs
// them: the compiled CLI in a child process, a local server playing the bank.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { SourceStatus } from '../src/ingest/health.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES as REGISTRY } from '../src/sources/index.js';
import { tempDb } from './helpers.js';
import { startFeedServer, type FeedServer } from './support/feed-server.js';

/** The sources of a default start: those whose terms allow commercial use (D22). */
const SOURCES = enabledSources(REGISTRY, []);

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));
const TODAY = new Date().toISOString().slice(0, 10);
const daily = (date: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time='${date}'><Cube currency='USD' rate='1.1700'/><Cube currency='JPY' rate='170.10'/></Cube></Cube></gesmes:Envelope>`;

describe('kurs ingest and kurs sources --json', () => {
  let db: ReturnType<typeof tempDb>;
  let server: FeedServer;
  let failing = false;
  before(async () => {
    db = tempDb();
    server = await startFeedServer(() => (failing ? { status: 404, body: 'gone' } : { body: daily(TODAY), contentType: 'text/xml' }));
  });
  after(async () => {
    await server.close();
    db.cleanup();
  });

  // Asynchronous: the feed server answers from this process while the CLI runs.
  const kurs = (...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      const env: NodeJS.ProcessEnv = { ...process.env, KURS_DATABASE_URL: db.url, KURS_SOURCE_ECBF_URL: server.url };
      delete env.KURS_SOURCE_FRNY_KEY;
      execFile(process.execPath, [BIN, ...args], { env, encoding: 'utf8' }, (err, stdout, stderr) => resolve({ status: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
    });
  const sources = async () => {
    const r = await kurs('sources', '--json');
    assert.equal(r.status, 0, r.stderr);
    return new Map((JSON.parse(r.stdout) as SourceStatus[]).map((row) => [row.source, row]));
  };

  test('a live ingest stores through the URL override and skips a keyless feed with a warning', async () => {
    assert.equal((await kurs('migrate')).status, 0);
    const r = await kurs('ingest', 'ECBF', 'FRNY');
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stderr, /warning: FRNY skipped: needs an API key: set KURS_SOURCE_FRNY_KEY/);
    assert.match(r.stdout, /ECBF .*: 2 new, 0 revised, 0 unchanged/);
    // FRNY asked nothing of anyone; ECBF asked the override.
    assert.ok(server.requests.length > 0 && server.requests.every((q) => q.url.startsWith('/eurofxref')));
  });

  test('sources --json: every source with its health fields; the fetched one with its newest day and success', async () => {
    const rows = await sources();
    assert.deepEqual([...rows.keys()].sort(), SOURCES.map((s) => s.code).sort());
    const ecbf = rows.get('ECBF')!;
    assert.deepEqual(Object.keys(ecbf).sort(), ['cadence', 'failing', 'feed_url', 'last_error', 'last_error_at', 'last_success', 'missed_publications', 'name', 'newest_observation', 'newest_valid_to', 'period_rates', 'rejections', 'schedule', 'seeded', 'source', 'terms', 'terms_url']);
    assert.equal(ecbf.newest_observation, TODAY);
    assert.equal(ecbf.missed_publications, 0);
    assert.ok(ecbf.last_success !== null && Date.now() - Date.parse(ecbf.last_success) < 120_000, String(ecbf.last_success));
    assert.equal(ecbf.failing, false);
    assert.equal(ecbf.last_error, null);
    const frny = rows.get('FRNY')!;
    assert.equal(frny.newest_observation, null);
    assert.equal(frny.missed_publications, null);
    assert.equal(frny.last_success, null);
  });

  test('the table says what /status says: ok for a source fresh today, no data for one never fetched', async () => {
    const table = (await kurs('sources')).stdout;
    assert.match(table, /^ECBF\s+daily\s+\d{4}-\d{2}-\d{2}\s+0\s+\S+\s+ok$/m);
    assert.match(table, /^NBPL\s+.*\s+never fetched\s+no data$/m);
  });

  test('a failing feed: ingest exits 1, sources --json shows the error and keeps the newest day', async () => {
    failing = true;
    const r = await kurs('ingest', 'ECBF');
    assert.equal(r.status, 1);
    assert.match(r.stdout, /ECBF: FETCH FAILED: HTTP 404/);
    const ecbf = (await sources()).get('ECBF')!;
    assert.equal(ecbf.failing, true);
    assert.match(ecbf.last_error ?? '', /HTTP 404/);
    assert.ok(ecbf.last_error_at !== null);
    assert.equal(ecbf.newest_observation, TODAY);
    const table = await kurs('sources');
    assert.match(table.stdout, /^ECBF\s+daily\s+\d{4}-\d{2}-\d{2}\s+0\s+\S+\s+FAILING\s+HTTP 404/m);
  });
});

describe('kurs sources, the table', () => {
  const db = tempDb();
  after(() => db.cleanup());
  const run = (env: NodeJS.ProcessEnv) =>
    new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [BIN, 'sources'], { env: { ...process.env, KURS_DATABASE_URL: db.url, ...env }, encoding: 'utf8' }, (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)));
    });

  test('a source skipped for want of its API key says `no key` and what to set; on an empty database the rest say `no data`, never `ok`', async () => {
    const env: NodeJS.ProcessEnv = {};
    for (const s of SOURCES.filter((x) => x.needsKey)) env[`KURS_SOURCE_${s.code}_KEY`] = '';
    const keyed = SOURCES.filter((s) => s.needsKey);
    assert.ok(keyed.length > 0);
    const lines = (await run(env)).split('\n');
    assert.match(lines[0]!, /^SOURCE\s+CADENCE\s+NEWEST\s+MISSED\s+LAST SUCCESS\s+STATE\s+CAUSE$/);
    for (const s of SOURCES) {
      const line = lines.find((l) => l.startsWith(`${s.code} `));
      assert.match(line ?? '', s.needsKey ? new RegExp(`\\sno key\\s+skipped: set KURS_SOURCE_${s.code}_KEY$`) : /\sno data$/, s.code);
    }
    // With its key set, the same source is judged by its figures again.
    const first = keyed[0]!;
    const withKey = (await run({ [`KURS_SOURCE_${first.code}_KEY`]: 'k' })).split('\n').find((l) => l.startsWith(`${first.code} `))!;
    assert.doesNotMatch(withKey, /no key/);
  });
});
