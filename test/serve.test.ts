import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { tempDb } from './helpers.js';
import { ecbDropDir } from './support/ecb-drop.js';
import { BIN, kursJson, startServer as start, stopServer as stop } from './support/server-process.js';

describe('kurs serve: the first start', () => {
  const db = tempDb();
  after(() => db.cleanup());

  test('on an empty database: seeds, prints a key once with a curl line that works', async () => {
    const { child, lines, url } = await start({ KURS_DATABASE_URL: db.url });
    try {
      const curl = lines.find((l) => l.includes('curl '));
      assert.ok(curl, `no curl line in:\n${lines.join('\n')}`);
      const m = /curl -H 'Authorization: (kurs_[0-9A-Za-z]{32})' (http:\/\/\S+)$/.exec(curl);
      assert.ok(m, curl);
      assert.ok(m[2]!.startsWith(url), `${m[2]} is not on ${url}`);
      assert.ok(m[2]!.endsWith('/v1/EUR/latest'));
      const res = await fetch(m[2]!, { headers: { authorization: m[1]! } });
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.rates.EUR, 1);
      assert.ok(Object.keys(body.rates).length > 100);
      assert.equal(res.headers.get('x-points-remaining'), '999');
    } finally {
      assert.equal(await stop(child), 0);
    }
  });

  test('data that `kurs ingest` stores while the server runs is served within seconds', async () => {
    const { child, url } = await start({ KURS_DATABASE_URL: db.url });
    const dir = ecbDropDir('2026-04-14', { USD: '1.1712', JPY: '186.95' });
    try {
      const ingest = spawnSync(process.execPath, [BIN, 'ingest', 'ECBF', '--from-dir', dir], { env: { ...process.env, KURS_DATABASE_URL: db.url }, encoding: 'utf8' });
      assert.equal(ingest.status, 0, ingest.stderr);
      assert.match(ingest.stdout, /ECBF eurofxref-daily.xml: 2 new/);
      const { key } = JSON.parse(spawnSync(process.execPath, [BIN, 'keys', 'create', '--plan', 'business', '--json'], { env: { ...process.env, KURS_DATABASE_URL: db.url }, encoding: 'utf8' }).stdout);
      const deadline = Date.now() + 30_000;
      let usd: unknown;
      while (Date.now() < deadline) {
        usd = (await (await fetch(`${url}/v1/bank/ECBF?reciprocal=true`, { headers: { authorization: key } })).json()).rates.USD;
        if (usd === 1.1712) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(usd, 1.1712);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await stop(child);
    }
  });

  test('a second start creates no key and prints none', async () => {
    const { child, lines } = await start({ KURS_DATABASE_URL: db.url });
    await stop(child);
    assert.ok(!lines.some((l) => l.includes('kurs_')), lines.join('\n'));
  });

  test('a first start on a busy port says so and creates no account; the next start prints a key that works', async () => {
    const other = tempDb();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const failed = await promisify(execFile)(process.execPath, [BIN, 'serve'], { env: { ...process.env, KURS_DATABASE_URL: other.url, KURS_PORT: String(port), KURS_INGEST: 'off', KURS_LOG_LEVEL: 'warn' } }).then(
        () => assert.fail('kurs serve listened on a port in use'),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      assert.equal(failed.code, 1);
      assert.equal(failed.stderr, `kurs: cannot listen on 127.0.0.1:${port}: another process uses that port (a Kurs started before?); stop it, or set KURS_PORT (0 picks a free one)\n`);
      assert.doesNotMatch(failed.stdout, /kurs_/);
      assert.deepEqual(kursJson(['accounts', 'list'], other.url), [], 'no account whose key nobody saw');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
    const { child, lines, url } = await start({ KURS_DATABASE_URL: other.url });
    try {
      const key = /^ {2}(kurs_[0-9A-Za-z]{32})$/m.exec(lines.join('\n'))?.[1];
      assert.ok(key, lines.join('\n'));
      const res = await fetch(`${url}/v1/usage`, { headers: { authorization: key } });
      assert.equal(res.status, 200);
      const usage = (await res.json()) as { plan: string; points: number };
      assert.deepEqual([usage.plan, usage.points], ['professional', 1000]);
      assert.equal(kursJson<unknown[]>(['accounts', 'list'], other.url).length, 1);
    } finally {
      assert.equal(await stop(child), 0);
      other.cleanup();
    }
  });

  test('KURS_BOOTSTRAP_KEY=off creates no account on an empty database', async () => {
    const other = tempDb();
    try {
      const { child, lines } = await start({ KURS_DATABASE_URL: other.url, KURS_BOOTSTRAP_KEY: 'off' });
      await stop(child);
      assert.ok(!lines.some((l) => l.includes('kurs_')));
    } finally {
      other.cleanup();
    }
  });
});
