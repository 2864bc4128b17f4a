// A first start as a newcomer has it (issue 26), twice: on a new SQLite file with the install-time
// build (scripts/build-first-start.mjs, run here into a temporary folder), and without it, loading
// and materialising the seed's history itself. Meanwhile a dated, a range and a bank request are
// asked over and over: every answer must be 503 `unavailable` with Retry-After or the right answer,
// never a wrong 404 or a partial one. "Right" is checked, not assumed: every 200 must equal the
// answer once history is ready, and both starts must end with the same answers. No timing is
// assumed: the requests go on until the server logs that history is ready, then once more.
// `kurs keys create` runs during the load and must succeed (no "database is locked").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { startKurs, stop, type Running } from '../bench/servers.js';

const BIN = fileURLToPath(new URL('../bin/kurs', import.meta.url));
const BUILD = fileURLToPath(new URL('../scripts/build-first-start.mjs', import.meta.url));
const ASKED = {
  dated: '/v1/EUR/2008-09-15',
  range: '/v1/timeseries/EUR?start=2008-09-01&end=2008-09-30&symbols=USD,GBP,JPY',
  bank: '/v1/bank/ECBF?date=2008-09-15',
};
type Name = keyof typeof ASKED;
interface Seen {
  status: number;
  body: string;
  retryAfter: string | null;
}

const dir = mkdtempSync(join(tmpdir(), 'kurs-first-start-server-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const env = (db: string, build: string) => ({ KURS_DATABASE_URL: `sqlite:${db}`, KURS_FIRST_START_DB: build, KURS_INGEST: 'off', KURS_LOG_FORMAT: 'json', KURS_LOG_SAMPLE: '1000' });

/** Whether a SQLite file's header says WAL mode (bytes 18 and 19 are 2: sqlite.org/fileformat.html),
 *  read as bytes: a connection to it, even a read-only one, would leave a -wal and a -shm beside it. */
function walHeader(file: string): boolean {
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  return header[18] === 2 && header[19] === 2;
}

/** The log record with this message, if written yet (JSON lines may follow `listening on`). */
const record = (server: Running, msg: string) => server.lines.find((l) => l.includes(`"msg":"${msg}"`));
const logged = (server: Running, msg: string) => record(server, msg) !== undefined;

/** `kurs keys create` on the server's database, as an operator would run it meanwhile. */
function createKey(db: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, 'keys', 'create', '--plan', 'business', '--points', '1000000', '--json'], { env: { ...process.env, KURS_DATABASE_URL: `sqlite:${db}` } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

/** Asks the three requests round after round until history is ready, then one round more. */
async function watch(server: Running, key: string): Promise<Record<Name, Seen[]>> {
  const seen: Record<Name, Seen[]> = { dated: [], range: [], bank: [] };
  for (let ready = false; ; ) {
    for (const name of Object.keys(ASKED) as Name[]) {
      const res = await fetch(server.url + ASKED[name], { headers: { authorization: key } });
      seen[name].push({ status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') });
    }
    if (ready) return seen;
    ready = logged(server, 'history ready');
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every answer is a 503 with Retry-After or the final answer, and the final one is a 200. */
function checkSequence(seen: Record<Name, Seen[]>, label: string): Record<Name, unknown> {
  const finals = {} as Record<Name, unknown>;
  for (const name of Object.keys(ASKED) as Name[]) {
    const last = seen[name].at(-1)!;
    assert.equal(last.status, 200, `${label} ${name}: the last answer, once history is ready: ${last.body.slice(0, 300)}`);
    const final = JSON.parse(last.body);
    for (const s of seen[name]) {
      if (s.status === 200) {
        assert.deepEqual(JSON.parse(s.body), final, `${label} ${name}: a 200 before history was ready differs from the final answer`);
        continue;
      }
      assert.equal(s.status, 503, `${label} ${name}: ${s.status} ${s.body.slice(0, 300)}`);
      assert.equal(JSON.parse(s.body).error, 'unavailable', `${label} ${name}`);
      assert.ok(Number(s.retryAfter) > 0, `${label} ${name}: Retry-After`);
    }
    finals[name] = final;
  }
  return finals;
}

test('a first start answers 503 or the right answer while history loads, with and without the install-time build', { timeout: 1_200_000 }, async () => {
  const build = join(dir, 'build', 'first-start.db');
  // The build and the start without it run side by side: they share no file.
  const building = new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [BUILD, build], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });

  // Without a build: an existing (empty) file is not a new one, so the server loads the history.
  const loadDb = join(dir, 'load.db');
  writeFileSync(loadDb, '');
  const loading = await startKurs(env(loadDb, build));
  let loaded: Record<Name, unknown>;
  try {
    const key = await createKey(loadDb);
    const keyDone = Date.now();
    assert.equal(key.code, 0, key.err);
    assert.doesNotMatch(key.err, /locked/);
    loaded = checkSequence(await watch(loading, JSON.parse(key.out).key), 'without the build');
    // Compared by the clock the log records carry, once they are all written.
    const loadEnd = (JSON.parse(record(loading, 'seed history loaded') ?? '{}') as { time?: number }).time;
    assert.ok(loadEnd !== undefined && keyDone < loadEnd, 'kurs keys create ran while the history loaded');
  } finally {
    await stop(loading);
  }

  const built = await building;
  assert.equal(built.code, 0);
  assert.match(built.out, /first-start history built/);
  // In WAL mode already, and alone: a copy in rollback mode was switched by the server's first pragma,
  // a write that synced the whole copy before the server could go on (D35).
  assert.ok(walHeader(build), 'the build is in WAL mode');
  assert.deepEqual(readdirSync(join(dir, 'build')).sort(), ['first-start.db', 'first-start.db.json']);
  const copyDb = join(dir, 'copy', 'kurs.db');
  const copying = await startKurs(env(copyDb, build));
  try {
    const key = await createKey(copyDb);
    assert.equal(key.code, 0, key.err);
    const copied = checkSequence(await watch(copying, JSON.parse(key.out).key), 'with the build');
    assert.ok(logged(copying, 'first start from the install-time history build'), copying.lines.filter((l) => !l.includes('"req')).join('\n'));
    assert.deepEqual(copied, loaded, 'the build answers as a first start that loads the history itself');
    assert.ok(!logged(copying, 'seed history loaded'), 'nothing was loaded: the build held it');
  } finally {
    await stop(copying);
  }
});
