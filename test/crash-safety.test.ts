// Crash safety (D2), black-box: the real server under load from a few accounts is SIGKILLed at
// random moments and restarted, several times. For every account, afterwards:
//   starting balance = current balance + points of every 200 the clients received + lost
// where `lost` (charged, but the answer never arrived) is at least 0 and at most the points of the
// requests that were in flight when the process died (each one failed on the client with a
// network error). `kurs audit` then finds the ledger agreeing with every balance. SQLite always; PostgreSQL when KURS_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDb } from './helpers.js';
import { pgSchema } from './support/pg-schema.js';
import { kursJson, startServer, stopServer } from './support/server-process.js';

const KILLS = 4;
const ACCOUNTS = 3;
/** Concurrent client loops; each has at most one request in flight. */
const WORKERS = 12;
const START_POINTS = 1_000_000;
/** Points per /v1/banks answer, set through KURS_POINTS_COST so a charge is not just 1. */
const COST = 3;

interface Tally {
  ok: number;
  /** Requests that failed with a network error: in flight when the server died. */
  lost: number;
  other: number;
}

/** Client loops hammering the server until `stop()`; results are counted per account. */
function load(url: string, keys: string[], tallies: Tally[]) {
  let running = true;
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      const a = (w + i) % keys.length;
      try {
        const res = await fetch(`${url}/v1/banks`, { headers: { authorization: keys[a]! } });
        await res.arrayBuffer();
        if (res.status === 200) tallies[a]!.ok++;
        else tallies[a]!.other++;
      } catch {
        tallies[a]!.lost++;
        return; // the server is gone: this loop ends with it
      }
    }
  };
  const loops = Array.from({ length: WORKERS }, (_, w) => worker(w));
  return async () => {
    running = false;
    await Promise.all(loops);
  };
}

async function crashRounds(databaseUrl: string): Promise<string[]> {
  const env = { KURS_DATABASE_URL: databaseUrl, KURS_SEED: 'off', KURS_BOOTSTRAP_KEY: 'off', KURS_POINTS_COST: `banks=${COST}` };
  const accounts = Array.from({ length: ACCOUNTS }, () => kursJson<{ key: string; account_id: string }>(['keys', 'create', '--plan', 'business', '--points', String(START_POINTS)], databaseUrl));
  const tallies: Tally[] = accounts.map(() => ({ ok: 0, lost: 0, other: 0 }));
  for (let round = 0; round < KILLS; round++) {
    const server = await startServer(env);
    const stop = load(server.url, accounts.map((a) => a.key), tallies);
    await sleep(300 + Math.floor(Math.random() * 700));
    await stopServer(server.child, 'SIGKILL');
    await stop();
  }
  // A last clean start proves the database recovered, and serves one more request per account.
  const server = await startServer(env);
  for (const [i, a] of accounts.entries()) {
    const res = await fetch(`${server.url}/v1/banks`, { headers: { authorization: a.key } });
    assert.equal(res.status, 200);
    tallies[i]!.ok++;
  }
  assert.equal(await stopServer(server.child), 0);

  const report: string[] = [];
  for (const [i, a] of accounts.entries()) {
    const { points } = kursJson<{ points: number }>(['accounts', 'show', a.account_id], databaseUrl);
    const t = tallies[i]!;
    const unexplained = START_POINTS - points - COST * t.ok;
    const context = `account ${i}: ${t.ok} answered 200, ${t.lost} lost in flight, ${t.other} other; balance ${points}`;
    assert.equal(t.other, 0, context);
    assert.ok(t.ok > KILLS, `too little load to mean anything: ${context}`);
    assert.ok(unexplained >= 0, `${-unexplained} points of answered requests were never charged: ${context}`);
    assert.ok(unexplained <= COST * t.lost, `${unexplained} points charged beyond the in-flight bound: ${context}`);
    report.push(`${context}; charged but unanswered ${unexplained / COST}`);
  }
  // The ledger is written in each charge's own transaction, so its crash bound is 0: after every
  // kill it must still add up to every balance exactly (`kurs audit` exits non-zero otherwise).
  const audit = kursJson<{ accounts: number; unreconciled: unknown[] }>(['audit'], databaseUrl);
  assert.equal(audit.accounts, ACCOUNTS);
  assert.deepEqual(audit.unreconciled, []);
  report.push(`kurs audit: ${audit.accounts} accounts, all reconciled (off by 0)`);
  return report;
}

describe('crash safety: SIGKILL under load, restart, balances add up', () => {
  test('on SQLite', async (ctx) => {
    const db = tempDb();
    try {
      for (const line of await crashRounds(db.url)) ctx.diagnostic(line);
    } finally {
      db.cleanup();
    }
  });

  const pgUrl = process.env.KURS_TEST_DATABASE_URL;
  test('on PostgreSQL', { skip: pgUrl ? false : 'KURS_TEST_DATABASE_URL is not set' }, async (ctx) => {
    const scoped = await pgSchema(pgUrl!);
    try {
      for (const line of await crashRounds(scoped.url)) ctx.diagnostic(line);
    } finally {
      await scoped.drop();
    }
  });
});
