// Feed faults, table-driven over every adapter in SOURCES: an empty body, an HTML error page with
// status 200, its real recorded payload cut in half, the same bytes in the wrong encoding, and
// another source's payload. Each must end as a clear ingest error (never a hang, never stored),
// the previous figures must stay served, and `kurs sources` must show the source failing.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fork } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { IngestOutcome } from '../src/ingest/ingest.js';
import { SOURCES } from '../src/sources/index.js';
import { fixtureDir } from './support/fixtures.js';
import { SEED_TODAY, testApp, type TestApp } from './helpers.js';
import { kursJson } from './support/server-process.js';

/** A parse that reports nothing for this long is taken to hang. */
const HANG_MS = 20_000;
const FAULT_COUNT = 5;
const fixturesUrl = fixtureDir();
const fixtures = fileURLToPath(fixturesUrl);

type Message = { type: 'start' | 'done' | 'skipped' | 'end'; code?: string; fault?: string; outcome?: IngestOutcome };

/** Runs the worker process to the end, stopping it if one payload takes longer than HANG_MS. */
function runFaults(dbPath: string): Promise<{ outcomes: { code: string; fault: string; outcome: IngestOutcome }[]; skipped: string[] }> {
  return new Promise((resolve, reject) => {
    const args = JSON.stringify({ dbPath, fixtures, now: new Date().toISOString() });
    const worker = fork(fileURLToPath(new URL('./support/feed-fault-worker.ts', import.meta.url)), [args], { execArgv: ['--import', 'tsx'] });
    const outcomes: { code: string; fault: string; outcome: IngestOutcome }[] = [];
    const skipped: string[] = [];
    let current = 'start-up';
    let timer = setTimeout(() => undefined, 0);
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        worker.kill('SIGKILL');
        reject(new Error(`hang: no answer within ${HANG_MS} ms for ${current}`));
      }, HANG_MS);
    };
    watch();
    worker.on('message', (m: Message) => {
      watch();
      if (m.type === 'start') current = `${m.code}: ${m.fault}`;
      if (m.type === 'skipped') skipped.push(m.code!);
      if (m.type === 'done') outcomes.push({ code: m.code!, fault: m.fault!, outcome: m.outcome! });
      if (m.type === 'end') {
        clearTimeout(timer);
        resolve({ outcomes, skipped });
      }
    });
    worker.on('error', (err) => (clearTimeout(timer), reject(err)));
    worker.on('exit', (code) => code !== 0 && (clearTimeout(timer), reject(new Error(`the worker exited with ${code} during ${current}`))));
  });
}

describe('feed faults on every adapter', () => {
  let t: TestApp;
  let key: string;
  const before_: Map<string, { status: number; body: string }> = new Map();
  before(async () => {
    t = await testApp();
    ({ key } = await t.key({ plan: 'business', points: 10_000 }));
  });
  after(() => t.close());

  const bank = async (code: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/bank/${code}?format=full`, headers: { authorization: key } });
    return { status: res.statusCode, body: res.body };
  };

  test('each fault is a clear ingest error; nothing is stored; the old figures stay served', async (ctx) => {
    for (const s of SOURCES) before_.set(s.code, await bank(s.code));
    const served = [...before_.values()].filter((b) => b.status === 200).length;
    const version = await t.store.dataVersion();
    const { outcomes, skipped } = await runFaults(t.dbPath);
    ctx.diagnostic(`${SOURCES.length - skipped.length} adapters × ${FAULT_COUNT} faults; ${served} sources had figures served before${skipped.length ? `; no fixture for ${skipped.join(', ')}` : ''}`);
    assert.equal(outcomes.length, (SOURCES.length - skipped.length) * FAULT_COUNT);
    const wrong = outcomes.filter(({ outcome }) => outcome.status !== 'failed' || outcome.reason.trim() === '' || /^unexpected /.test(outcome.reason));
    assert.deepEqual(
      wrong.map(({ code, fault, outcome }) => `${code} ${fault}: ${outcome.status} ${'reason' in outcome ? outcome.reason.slice(0, 160) : ''}`),
      [],
    );
    assert.equal(await t.store.dataVersion(), version, 'a faulty payload was stored');
    await t.market.rebuild(SEED_TODAY);
    for (const s of SOURCES) assert.deepEqual(await bank(s.code), before_.get(s.code), `${s.code} answers differently`);
  });

  test('`kurs sources` shows every source that was fed a fault as failing, with the error', () => {
    const rows = kursJson<{ source: string; failing: boolean; last_error: string | null }[]>(['sources'], `sqlite:${t.dbPath}`);
    const faulted = new Set(SOURCES.map((s) => s.code).filter((c) => existsSync(`${fixtures}/${c}`) || existsSync(`${fixtures}/../wave3/${c}`)));
    for (const row of rows.filter((r) => faulted.has(r.source))) {
      assert.ok(row.failing, `${row.source} is not marked failing`);
      assert.ok(row.last_error, `${row.source}: no last error`);
    }
  });
});
