// The server's log as a person at a terminal reads it (KURS_LOG_FORMAT=pretty) and as a log
// collector reads it (json): the real server in a child process, its stdout read line by line.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { tempDb } from './helpers.js';
import { startServer, stopServer } from './support/server-process.js';

/** A first start (seed, bootstrap key), one keyed request, then the stdout lines so far. */
async function firstStart(format: string): Promise<string[]> {
  const db = tempDb();
  const server = await startServer({ KURS_DATABASE_URL: db.url, KURS_LOG_FORMAT: format, KURS_LOG_LEVEL: 'info' });
  try {
    const key = /^ {2}(kurs_\w+)$/m.exec(server.lines.join('\n'))?.[1];
    assert.ok(key, server.lines.join('\n'));
    assert.equal((await fetch(`${server.url}/v1/EUR/latest`, { headers: { authorization: key } })).status, 200);
    // Until the request's own log line is out: request lines reach stdout in batches, up to a second
    // late (the curl line names the URL too, and other lines say "request").
    const logged = (l: string) => /INFO: request GET \/v1\/EUR\/latest|"msg":"request".*"url":"\/v1\/EUR\/latest"|"url":"\/v1\/EUR\/latest".*"msg":"request"/.test(l);
    for (let i = 0; i < 250 && !server.lines.some(logged); i++) await sleep(20);
    return [...server.lines];
  } finally {
    await stopServer(server.child);
    db.cleanup();
  }
}

describe('log lines', () => {
  test('pretty: short readable lines, no JSON, the welcome, key and curl lines among them', async () => {
    const lines = await firstStart('pretty');
    assert.ok(lines.every((l) => !l.trimStart().startsWith('{')), lines.join('\n'));
    assert.ok(lines.some((l) => /^First start: created a professional account with \d+ points\./.test(l)));
    assert.ok(lines.some((l) => /^Try it: {2}curl -H 'Authorization: kurs_\w+' http:\/\/127\.0\.0\.1:\d+\/v1\/EUR\/latest$/.test(l)));
    const request = lines.find((l) => l.includes('GET /v1/EUR/latest'));
    assert.match(request ?? '', /^\[\d{2}:\d{2}:\d{2}\] INFO: request GET \/v1\/EUR\/latest 200 [\d.]+ ms$/);
    assert.ok(lines.every((l) => l.length < 200), 'every line fits a terminal');
    assert.ok(!lines.join('\n').includes('"level"'));
  });

  test('json: every log record is one JSON line, the operator\'s lines stay plain', async () => {
    const lines = await firstStart('json');
    const records = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; msg: string; url?: string });
    assert.ok(records.some((r) => r.msg === 'request' && r.url === '/v1/EUR/latest' && r.level === 30));
    assert.ok(lines.some((l) => l.startsWith('listening on http://')));
  });
});

test('KURS_LOG_FORMAT overrides the terminal check; without it a terminal gets pretty, a pipe JSON', () => {
  assert.equal(loadConfig({}, true).logFormat, 'pretty');
  assert.equal(loadConfig({}, false).logFormat, 'json');
  assert.equal(loadConfig({ KURS_LOG_FORMAT: 'json' }, true).logFormat, 'json');
  assert.equal(loadConfig({ KURS_LOG_FORMAT: 'pretty' }, false).logFormat, 'pretty');
  assert.throws(() => loadConfig({ KURS_LOG_FORMAT: 'xml' }, false), /KURS_LOG_FORMAT must be "json" or "pretty", got "xml"/);
});
