// A seed is not a fetch: after a first start with KURS_INGEST=off, /status and `kurs sources` say
// the figures are the seed's, and "last success" stays for a real fetch or import.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Running } from '../bench/servers.js';
import { lastSuccessText, type SourceStatus } from '../src/ingest/health.js';
import { enabledSources } from '../src/sources/enabled.js';
import { SOURCES as REGISTRY } from '../src/sources/index.js';
import { tempDb } from './helpers.js';
import { BIN, kursJson, startServer, stopServer } from './support/server-process.js';

/** The sources of a default start: those whose terms allow commercial use (D22). */
const SOURCES = enabledSources(REGISTRY, []);

const ECB_DAY = `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube><Cube time='2026-04-14'><Cube currency='USD' rate='1.1750'/></Cube></Cube></gesmes:Envelope>`;

describe('a first start with KURS_INGEST=off', () => {
  let db: ReturnType<typeof tempDb>;
  let server: Running;
  before(async () => {
    db = tempDb();
    server = await startServer({ KURS_DATABASE_URL: db.url, KURS_BOOTSTRAP_KEY: 'off' });
  });
  after(async () => {
    await stopServer(server.child);
    db.cleanup();
  });
  const row = async (code: string) => (await (await fetch(`${server.url}/status`)).text()).match(new RegExp(`<tr class="[a-z-]+" id="src-${code}">.*?</tr>`))?.[0] ?? '';

  test('/status says "seeded" where it said the start time', async () => {
    const ecbf = await row('ECBF');
    assert.match(ecbf, /<td>2026-04-13<\/td><td class="num">\d+<\/td><td>seeded<\/td>/);
  });

  test('/status says why nothing is fresh: ingest is off, and the seed is older than the clock', async () => {
    const page = await (await fetch(`${server.url}/status`)).text();
    const why = /<div id="why" class="why">(.*?)<\/div>/.exec(page)?.[1] ?? '';
    assert.match(why, /<li>Ingest is off on this instance \(<code>KURS_INGEST=off<\/code>\)/);
    const newest = kursJson<SourceStatus[]>(['sources'], db.url).map((r) => r.newest_observation ?? '').sort().pop()!;
    const today = new Date().toISOString().slice(0, 10);
    // The bundled seed ends in 2026: on any later day nothing of it is fresh.
    if (/<li id="coverage"><b>0 \//.test(page)) {
      assert.ok(newest < today);
      assert.match(why, new RegExp(`<li>The data is older than the clock: the newest figure held is from ${newest}, \\d+ days? before today \\(\\d{4}-\\d\\d-\\d\\d\\), and every figure is the bundled seed's: no source has been fetched yet\\.</li>`));
    } else {
      assert.doesNotMatch(why, /older than the clock/);
    }
  });

  test('kurs sources --json: no last success, seeded; the table says "seeded", and the state /status says', async () => {
    const rows = kursJson<SourceStatus[]>(['sources'], db.url);
    assert.deepEqual(rows.map((r) => r.source).sort(), SOURCES.map((s) => s.code).sort());
    assert.deepEqual(rows.filter((r) => !(r.last_success === null && r.seeded === (r.newest_observation !== null))), [], 'a seeded source has a last success');
    assert.ok(rows.filter((r) => r.seeded).length > 80);
    const table = spawnSync(process.execPath, [BIN, 'sources'], { env: { ...process.env, KURS_DATABASE_URL: db.url }, encoding: 'utf8' });
    // The seed's ECBF figures end on 2026-04-13, months before any clock this runs on: stale, on the
    // page and in the table alike (it used to say `ok` here).
    const state = /<tr class="([a-z-]+)"/.exec(await row('ECBF'))?.[1];
    assert.equal(state, 'stale');
    assert.match(table.stdout, /\nECBF +daily +2026-04-13 +\d+ +seeded +stale\n/);
  });

  test('a real import sets last success; the other sources stay seeded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kurs-seeded-'));
    try {
      mkdirSync(join(dir, 'ECBF'));
      writeFileSync(join(dir, 'ECBF', 'eurofxref-daily.xml'), ECB_DAY);
      const run = spawnSync(process.execPath, [BIN, 'ingest', '--from-dir', dir], { env: { ...process.env, KURS_DATABASE_URL: db.url }, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const rows = new Map(kursJson<SourceStatus[]>(['sources'], db.url).map((r) => [r.source, r]));
    const ecbf = rows.get('ECBF')!;
    assert.equal(ecbf.seeded, false);
    assert.ok(ecbf.last_success !== null && Date.now() - Date.parse(ecbf.last_success) < 120_000, String(ecbf.last_success));
    assert.equal(rows.get('BCAN')!.seeded, true);
  });
});

test('last success reads as a time, "seeded" or "never fetched"', () => {
  assert.equal(lastSuccessText({ last_success: '2026-04-14T15:30:12.000Z', seeded: false }), '2026-04-14T15:30');
  assert.equal(lastSuccessText({ last_success: '2026-04-14T15:30:12.000Z', seeded: false }, ' '), '2026-04-14 15:30');
  assert.equal(lastSuccessText({ last_success: null, seeded: true }), 'seeded');
  assert.equal(lastSuccessText({ last_success: null, seeded: false }), 'never fetched');
});
