// Scale-out with real processes: two `kurs serve` instances on one PostgreSQL database share one
// points ledger exactly, survive the loss of one instance, and serve data the other side stored.
// Skipped when KURS_TEST_DATABASE_URL is not set.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startKurs, type Running } from '../bench/servers.js';
import { createKey } from '../src/access/accounts.js';
import { MAX_BATCH } from '../src/access/meter.js';
import { SOURCES } from '../src/sources/index.js';
import { openPostgres } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { ecbDropDir } from './support/ecb-drop.js';
import { PG_TEST_URL, tempPgDatabase, type TempPg } from './support/pg.js';

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));
const REQUESTS = 3_000;
const CONCURRENCY = 200;

interface Outcome {
  via: string;
  status: number | 'network';
  remaining?: number;
  error?: string;
}

/** `REQUESTS` charged requests from `CONCURRENCY` workers, alternating between the given instances. */
async function fire(key: string, pick: (i: number) => string, onDone?: (o: Outcome) => void): Promise<Outcome[]> {
  const out: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      const via = pick(i);
      let o: Outcome;
      try {
        const res = await fetch(`${via}/v1/USD/latest`, { headers: { authorization: key } });
        const body = (await res.json()) as { error?: string };
        o = { via, status: res.status, remaining: Number(res.headers.get('x-points-remaining')), error: body.error };
      } catch {
        o = { via, status: 'network' };
      }
      out.push(o);
      onDone?.(o);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

describe('two real instances on one PostgreSQL database', { skip: PG_TEST_URL ? false : 'KURS_TEST_DATABASE_URL is not set' }, () => {
  let db: TempPg;
  let store: Store;
  let a: Running;
  let b: Running;
  const env = () => ({ KURS_DATABASE_URL: db.url, KURS_BOOTSTRAP_KEY: 'off', KURS_INGEST: 'off', KURS_LOG_LEVEL: 'error' });

  before(async () => {
    db = await tempPgDatabase();
    // One after the other: the first migrates and loads the seed, the second finds it done.
    a = await startKurs(env());
    b = await startKurs(env());
    store = openPostgres(db.url, { poolSize: 2 });
  });
  after(async () => {
    for (const s of [a, b]) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await Promise.all([a, b].map((s) => (s.child.exitCode === null && s.child.signalCode === null ? once(s.child, 'exit') : undefined)));
    await store.close();
    await db.drop();
  });

  test('a few thousand concurrent requests across both: exactly N succeed, the rest 402, balance 0', async () => {
    const n = 1_000;
    const { key, account_id } = await createKey(store, { plan: 'business', points: n }, new Date());
    const outcomes = await fire(key, (i) => (i % 2 ? a.url : b.url));
    const ok = outcomes.filter((o) => o.status === 200);
    const refused = outcomes.filter((o) => o.status === 402);
    assert.equal(ok.length, n);
    assert.equal(refused.length, REQUESTS - n);
    // Both instances took part in spending the one balance.
    assert.ok(ok.filter((o) => o.via === a.url).length > n / 10 && ok.filter((o) => o.via === b.url).length > n / 10);
    assert.ok(refused.every((o) => o.error === 'points_exhausted'));
    // Every success saw its own balance after its own charge, across both instances: none shared one.
    assert.deepEqual(ok.map((o) => o.remaining).sort((x, y) => x! - y!), Array.from({ length: n }, (_, i) => i));
    assert.equal((await store.getAccount(account_id))!.points, 0);
  });

  test('SIGKILL of one instance mid-load: balance plus successes add up, less at most what was in flight', async (t) => {
    const n = 1_500;
    const { key, account_id } = await createKey(store, { plan: 'business', points: n }, new Date());
    // Mid-load, `a` is frozen (SIGSTOP) where it stands, then sent FROZEN_SENDS more requests, then
    // killed: it never runs again after the freeze, so the kill cuts at least those requests however
    // fast the machine is (the load finishing before a plain kill landed made this test flaky).
    const FROZEN_SENDS = 10;
    let served = 0;
    let frozen = false;
    let sentToFrozen = 0;
    let killed = false;
    const pick = (i: number): string => {
      if (killed || i % 2) return b.url;
      if (frozen && ++sentToFrozen === FROZEN_SENDS) {
        killed = true;
        a.child.kill('SIGKILL');
      }
      return a.url;
    };
    const outcomes = await fire(key, pick, (o) => {
      if (o.status === 200 && ++served === 400 && !frozen) {
        frozen = true;
        a.child.kill('SIGSTOP');
      }
    });
    const [, signal] = a.child.exitCode === null && a.child.signalCode === null ? await once(a.child, 'exit') : [a.child.exitCode, a.child.signalCode];
    assert.equal(signal, 'SIGKILL');
    const ok = outcomes.filter((o) => o.status === 200).length;
    const lostInFlight = outcomes.filter((o) => o.status === 'network').length;
    const balance = (await store.getAccount(account_id))!.points;
    const charged = n - balance;
    t.diagnostic(`served ${ok}, charged ${charged}, requests cut by the kill ${lostInFlight}`);
    // Never served free; the only loss is charges whose responses were in flight when it died.
    assert.ok(ok <= charged, `${ok} successes but only ${charged} points taken`);
    assert.ok(charged - ok <= lostInFlight, `${charged - ok} charged without an answer, but only ${lostInFlight} requests were cut`);
    assert.ok(charged - ok <= MAX_BATCH);
    assert.ok(killed && lostInFlight >= FROZEN_SENDS, `the kill cut ${lostInFlight} requests`);
    // The survivor spent the rest exactly.
    assert.equal(balance, 0);
    assert.ok(outcomes.filter((o) => o.status !== 200 && o.status !== 'network').every((o) => o.status === 402));
  });

  test('data stored through one instance is served by the other within seconds (LISTEN/NOTIFY)', async () => {
    const dir = ecbDropDir('2026-04-15', { USD: '1.2345', JPY: '181.5' });
    const { key } = await createKey(store, { plan: 'business', points: 1_000 }, new Date());
    try {
      const usdAt = async (url: string) => (await (await fetch(`${url}/v1/bank/ECBF?reciprocal=true`, { headers: { authorization: key } })).json()).rates.USD;
      assert.notEqual(await usdAt(b.url), 1.2345);
      const ingest = spawnSync(process.execPath, [BIN, 'ingest', 'ECBF', '--from-dir', dir], { env: { ...process.env, ...env() }, encoding: 'utf8' });
      assert.equal(ingest.status, 0, ingest.stderr);
      // Polled: on a quiet machine it lands in well under a second; the deadline only bounds a hang.
      const deadline = Date.now() + 30_000;
      let usd: unknown;
      while (Date.now() < deadline && (usd = await usdAt(b.url)) !== 1.2345) await new Promise((r) => setTimeout(r, 100));
      assert.equal(usd, 1.2345);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('with ingestion on, exactly one instance runs the scheduler; when it is killed another takes over', async () => {
    // Every feed points at a closed local port: runs fail at once and nothing leaves the machine.
    const feeds = Object.fromEntries(SOURCES.map((s) => [`KURS_SOURCE_${s.code}_URL`, 'http://127.0.0.1:9/']));
    const ingesting = { ...env(), ...feeds, KURS_INGEST: 'on', KURS_LOG_LEVEL: 'info' };
    const c = await startKurs(ingesting);
    const d = await startKurs(ingesting);
    const leads = (s: Running) => s.lines.some((l) => l.includes('this instance is the ingester'));
    try {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && !leads(c) && !leads(d)) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1_000));
      assert.equal(Number(leads(c)) + Number(leads(d)), 1, 'exactly one ingester');
      const [leader, follower] = leads(c) ? [c, d] : [d, c];
      leader.child.kill('SIGKILL');
      const takeover = Date.now() + 60_000;
      while (Date.now() < takeover && !leads(follower)) await new Promise((r) => setTimeout(r, 100));
      assert.ok(leads(follower), 'the survivor should take over the scheduler');
    } finally {
      for (const s of [c, d]) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    }
  });
});
