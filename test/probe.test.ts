// `kurs sources --probe` (issue 35 item 5): a recorded payload served by a local feed is fetched
// through the source's own path and parsed; a certificate no trust store knows, a 403 and a feed
// that never answers each come back failed with their cause; the CLI prints a table and a summary
// line, or JSON, and exits 1 when a probe failed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { probeSource, probeSummary, type ProbeResult } from '../src/ingest/probe.js';
import { createHttpClient } from '../src/sources/http.js';
import { sourceByCode } from '../src/sources/index.js';
import { tempDb } from './helpers.js';
import { startBrokenFeeds, type BrokenFeeds } from './support/broken-feeds.js';
import { startFeedServer, type FeedServer } from './support/feed-server.js';
import { fixtureDir } from './support/fixtures.js';

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));
const RECORDED = readFileSync(new URL('eurofxref-hist-90d-2025-04-04.xml', fixtureDir('ECBF')));
const NOW = new Date('2025-04-05T12:00:00Z');
const ecbf = sourceByCode('ECBF')!;
/** Short: the silent feed is a timeout at once; the others fail long before it. */
const TIMEOUT_MS = 1_500;

describe('probing a source', () => {
  let feed: FeedServer;
  let broken: BrokenFeeds;
  before(async () => {
    feed = await startFeedServer(() => ({ body: RECORDED, contentType: 'text/xml' }));
    broken = await startBrokenFeeds();
  });
  after(async () => {
    await feed.close();
    await broken.close();
  });
  const probe = (url: string) => probeSource({ http: createHttpClient({ retries: 0, timeoutMs: TIMEOUT_MS }), config: { sourceUrls: { ECBF: url }, sourceKeys: {} }, now: () => NOW, timeoutMs: TIMEOUT_MS }, ecbf);

  test('a recorded payload: status 200, its bytes, its figures and newest date', async () => {
    const r = await probe(feed.url);
    assert.deepEqual({ ...r, ms: 0 }, { source: 'ECBF', outcome: 'parsed', http_status: 200, tls: 'http', bytes: RECORDED.length, figures: (await ecbf.parse({ name: 'x.xml', body: RECORDED })).length, newest_date: '2025-04-04', ms: 0, cause: null, error: null });
    assert.ok(r.figures > 1000);
  });

  test('a certificate the default trust cannot verify: failed, its TLS verdict and cause', async () => {
    const r = await probe(broken.untrusted);
    assert.equal(r.outcome, 'failed');
    assert.equal(r.http_status, null);
    assert.equal(r.tls, 'DEPTH_ZERO_SELF_SIGNED_CERT');
    assert.equal(r.cause?.kind, 'tls');
  });

  test('a 403: failed with the status and what to try', async () => {
    const r = await probe(broken.forbidden);
    assert.deepEqual([r.outcome, r.http_status, r.tls, r.cause?.kind], ['failed', 403, 'http', 'forbidden']);
    assert.match(r.cause!.words, /User-Agent/);
  });

  test('a feed that never answers: a timeout, not a hang', async () => {
    const r = await probe(broken.silent);
    assert.deepEqual([r.outcome, r.http_status, r.cause?.kind], ['failed', null, 'timeout']);
  });

  test('the summary line counts each outcome and the failures by cause', () => {
    const row = (outcome: ProbeResult['outcome'], kind?: 'tls' | 'forbidden'): ProbeResult => ({ source: 'X', outcome, http_status: null, tls: '-', bytes: 0, figures: 0, newest_date: null, ms: 0, cause: kind ? { kind, words: '' } : null, error: null });
    assert.equal(probeSummary([row('parsed'), row('failed', 'tls'), row('failed', 'tls'), row('failed', 'forbidden'), row('no key')]), 'probed 5 sources: 1 parsed, 3 failed (2 tls, 1 forbidden), 1 without their API key');
  });

  // The compiled CLI, as an operator runs it.
  const kurs = (db: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      const all: NodeJS.ProcessEnv = { ...process.env, KURS_DATABASE_URL: db, ...env };
      delete all.KURS_SOURCE_FRNY_KEY;
      execFile(process.execPath, [BIN, 'sources', ...args], { env: all, encoding: 'utf8' }, (err, stdout, stderr) => resolve({ status: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
    });

  test('kurs sources --probe: a table and a summary line; --json; exit 1 when one failed', async () => {
    const db = tempDb();
    try {
      const ok = await kurs(db.url, { KURS_SOURCE_ECBF_URL: feed.url }, '--probe', 'ECBF', 'FRNY');
      assert.equal(ok.status, 0, ok.stderr);
      const lines = ok.stdout.trim().split('\n');
      assert.match(lines[0]!, /^SOURCE\s+OUTCOME\s+HTTP\s+TLS\s+BYTES\s+FIGURES\s+NEWEST\s+TIME\s+CAUSE$/);
      assert.match(lines.find((l) => l.startsWith('ECBF'))!, new RegExp(`^ECBF\\s+parsed\\s+200\\s+http\\s+${RECORDED.length}\\s+\\d+\\s+\\d{4}-\\d{2}-\\d{2}\\s+\\d+\\.\\d s\\s+-$`));
      assert.match(lines.find((l) => l.startsWith('FRNY'))!, /^FRNY\s+no key\s+-\s+-\s+0\s+0\s+-\s+\S+ s\s+set KURS_SOURCE_FRNY_KEY$/);
      assert.equal(lines.at(-1), 'probed 2 sources: 1 parsed, 0 failed, 1 without their API key');
      const failing = await kurs(db.url, { KURS_SOURCE_ECBF_URL: broken.forbidden }, '--probe', 'ECBF', '--json');
      assert.equal(failing.status, 1);
      const json = JSON.parse(failing.stdout) as { results: ProbeResult[]; summary: string };
      assert.deepEqual([json.results[0]!.source, json.results[0]!.http_status, json.results[0]!.cause?.kind], ['ECBF', 403, 'forbidden']);
      assert.equal(json.summary, 'probed 1 source: 0 parsed, 1 failed (1 forbidden)');
    } finally {
      db.cleanup();
    }
  });
});
