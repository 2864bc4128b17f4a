// The server's log as a person at a terminal reads it (KURS_LOG_FORMAT=pretty) and as a log
// collector reads it (json): the real server in a child process, its stdout read line by line.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { tempDb } from './helpers.js';
import { startServer, stopServer } from './support/server-process.js';

/** A first start (seed, bootstrap key), one keyed request and one with a wrong key, then the stdout
 *  lines so far. */
async function firstStart(format: string, env: Record<string, string> = {}): Promise<string[]> {
  const db = tempDb();
  const server = await startServer({ KURS_DATABASE_URL: db.url, KURS_LOG_FORMAT: format, KURS_LOG_LEVEL: 'info', ...env });
  try {
    const key = /^ {2}(kurs_\w+)$/m.exec(server.lines.join('\n'))?.[1];
    assert.ok(key, server.lines.join('\n'));
    assert.equal((await fetch(`${server.url}/v1/EUR/latest`, { headers: { authorization: key } })).status, 200);
    assert.equal((await fetch(`${server.url}/v1/GBP/latest`, { headers: { authorization: `Bearer ${key}` } })).status, 401);
    // Until the 401's line is out (an error always gets one, sampled or not): request lines reach
    // stdout in batches, in order, up to a second late.
    const logged = (l: string) => /INFO: request GET \/v1\/GBP\/latest 401|"url":"\/v1\/GBP\/latest","status":401/.test(l);
    for (let i = 0; i < 250 && !server.lines.some(logged); i++) await sleep(20);
    return [...server.lines];
  } finally {
    await stopServer(server.child);
    db.cleanup();
  }
}

describe('log lines', () => {
  test('pretty: short readable lines, no JSON, the welcome, key and curl lines among them', async () => {
    // A build made for another setting (the offline demo's `KURS_FRESHNESS_GRACE_DAYS=365 npm run
    // build:first-start` used to replace the default one), at a long path: the line that says why
    // it is not used fits a terminal too.
    const stale = join(mkdtempSync(join(tmpdir(), `kurs-log-format-${'x'.repeat(60)}-`)), 'first-start.db');
    writeFileSync(stale, '');
    writeFileSync(`${stale}.json`, JSON.stringify({ key: 'f'.repeat(64), builtAt: '2026-04-14T12:00:00.000Z', lastDay: '2026-04-14', observations: 1, days: 1, ms: 1 }));
    const lines = await firstStart('pretty', { KURS_FIRST_START_DB: stale });
    rmSync(dirname(stale), { recursive: true, force: true });
    assert.ok(lines.some((l) => /INFO: first start loads the history itself \{"reason":"the install-time build is for other code or seed; npm run build:first-start redoes it"\}$/.test(l)), lines.join('\n'));
    assert.ok(lines.every((l) => !l.trimStart().startsWith('{')), lines.join('\n'));
    assert.ok(lines.some((l) => /^First start: created a professional account with \d+ points\./.test(l)));
    assert.ok(lines.some((l) => /^Try it: {2}curl -H 'Authorization: kurs_\w+' http:\/\/127\.0\.0\.1:\d+\/v1\/EUR\/latest$/.test(l)));
    assert.ok(lines.some((l) => /^Or see: {2}http:\/\/127\.0\.0\.1:\d+\/explore#key=kurs_\w+$/.test(l)));
    const request = lines.find((l) => l.includes('GET /v1/EUR/latest'));
    assert.match(request ?? '', /^\[\d{2}:\d{2}:\d{2}\] INFO: request GET \/v1\/EUR\/latest 200 [\d.]+ ms$/);
    assert.ok(lines.every((l) => l.length < 200), `every line fits a terminal: ${lines.filter((l) => l.length >= 200).join('\n')}`);
    assert.ok(!lines.join('\n').includes('"level"'));
  });

  test('json: every log record is one JSON line, the operator\'s lines stay plain', async () => {
    const lines = await firstStart('json', { KURS_LOG_SAMPLE: '1' });
    const records = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; msg: string; url?: string; sample?: number });
    assert.ok(records.some((r) => r.msg === 'request' && r.url === '/v1/EUR/latest' && r.level === 30 && r.sample === undefined));
    assert.ok(records.some((r) => r.msg === 'request' && r.url === '/v1/GBP/latest'));
    assert.ok(!records.some((r) => r.msg.startsWith('request lines:')), 'no sampling to announce');
    assert.ok(lines.some((l) => l.startsWith('listening on http://')));
  });

  test('json by default: request lines sampled, said at boot; the error still logged, the first 200 not', async () => {
    const lines = await firstStart('json');
    const records = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; url?: string; status?: number });
    assert.ok(records.some((r) => r.msg === 'request lines: every error and slow request, 1 in 10 of the others (KURS_LOG_SAMPLE=1 logs every request)'));
    assert.deepEqual(
      records.filter((r) => r.msg === 'request').map((r) => [r.url, r.status]),
      [['/v1/GBP/latest', 401]],
    );
  });
});

test('KURS_LOG_FORMAT overrides the terminal check; without it a terminal gets pretty, a pipe JSON', () => {
  assert.equal(loadConfig({}, true).logFormat, 'pretty');
  assert.equal(loadConfig({}, false).logFormat, 'json');
  assert.equal(loadConfig({ KURS_LOG_FORMAT: 'json' }, true).logFormat, 'json');
  assert.equal(loadConfig({ KURS_LOG_FORMAT: 'pretty' }, false).logFormat, 'pretty');
  assert.throws(() => loadConfig({ KURS_LOG_FORMAT: 'xml' }, false), /KURS_LOG_FORMAT must be "json" or "pretty", got "xml"/);
});

test('KURS_LOG_SAMPLE: 10 with JSON logs, 1 at a terminal, a whole number of at least 1 when set', () => {
  assert.equal(loadConfig({}, false).logSample, 10);
  assert.equal(loadConfig({}, true).logSample, 1);
  assert.equal(loadConfig({ KURS_LOG_FORMAT: 'pretty' }, false).logSample, 1);
  assert.equal(loadConfig({ KURS_LOG_SAMPLE: '1' }, false).logSample, 1);
  assert.equal(loadConfig({ KURS_LOG_SAMPLE: '25' }, true).logSample, 25);
  for (const bad of ['0', '-3', '2.5', 'all']) assert.throws(() => loadConfig({ KURS_LOG_SAMPLE: bad }, false), /KURS_LOG_SAMPLE must be a whole number from 1 to 1000000/);
});
