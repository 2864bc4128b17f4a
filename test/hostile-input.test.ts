// Hostile HTTP input: ten thousand generated malformed requests through app.inject(), and a few
// hundred raw-socket ones inject cannot express, against a real listening server. Every answer must
// be a 4xx in the D1 envelope (or, for bytes that are not HTTP, a clean close): no 5xx, no hang, no
// charge, and the heap back within a bound once the garbage is collected.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ERROR_STATUS } from '../src/http/errors.js';
import { testApp, type TestApp } from './helpers.js';
import { injectable, rawRequest, type HostileRequest } from './support/hostile.js';

const INJECTED = 10_000;
const RAW = 300;
/** Heap growth allowed across the whole run once garbage is collected (measured: a few MB). */
const HEAP_BOUND_MB = 40;
const RAW_TIMEOUT_MS = 5_000;
const STARTING_POINTS = 1_000;

let WELCOME = '';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** The D1 envelope with a 4xx status; returns a problem or undefined. */
function envelopeProblem(status: number, body: string, method: string, headers: Record<string, unknown>): string | undefined {
  // Dot segments resolve (`/%2e%2e` is `/`), never above the root: the free welcome page is fine.
  if (status === 200 && body === WELCOME) return undefined;
  if (status < 400 || status > 499) return `status ${status}`;
  if (method === 'HEAD') return undefined;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return `body is not JSON: ${body.slice(0, 120)}`;
  }
  if (parsed.code !== status) return `code ${String(parsed.code)} != status ${status}`;
  if (typeof parsed.message !== 'string' || parsed.message === '') return 'no message';
  const code = parsed.error as keyof typeof ERROR_STATUS;
  if (ERROR_STATUS[code] !== status) return `error ${String(code)} is not a ${status} code`;
  if (headers['cache-control'] !== 'no-store') return `cache-control ${String(headers['cache-control'])}`;
  if (/\bat .+:\d+:\d+/.test(body)) return 'stack trace in body';
  return undefined;
}

/** Writes raw bytes, half-closes, and resolves with whatever came back before the server closed. */
function rawExchange(port: number, bytes: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.end(Buffer.from(bytes, 'latin1')));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${RAW_TIMEOUT_MS} ms for ${JSON.stringify(bytes.slice(0, 120))}`));
    }, RAW_TIMEOUT_MS);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined); // a reset is a clean refusal too
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

/** Splits one HTTP/1.1 answer into status, lower-cased headers and body. */
function parseAnswer(answer: string): { status: number; headers: Record<string, string>; body: string } | undefined {
  const m = /^HTTP\/1\.1 (\d{3}) [^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(answer);
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const line of m[2]!.split('\r\n')) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers['content-length'] ?? NaN);
  return { status: Number(m[1]), headers, body: Number.isFinite(length) ? m[3]!.slice(0, length) : m[3]! };
}

describe('hostile HTTP input', () => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  let port: number;
  before(async () => {
    t = await testApp();
    ({ key, accountId } = await t.key({ plan: 'business', points: STARTING_POINTS }));
    WELCOME = (await t.app.inject({ method: 'GET', url: '/' })).body;
    port = Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port);
  });
  after(() => t.close());

  test(`${INJECTED} generated malformed requests through inject get only 4xx envelopes, cost nothing, leak nothing`, async () => {
    const send = (r: HostileRequest) => t.app.inject({ method: r.method as 'GET', url: r.url, headers: r.headers, ...(r.payload !== undefined ? { payload: r.payload } : {}) });
    for (let i = 0; i < 200; i++) await send({ method: 'GET', url: '/v1/EUR/latest?amount=0', headers: { authorization: key } });
    const heapBefore = heapMb();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(injectable(key), async (r) => {
        const res = await send(r);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const problem = envelopeProblem(res.statusCode, res.body, r.method, res.headers);
        assert.equal(problem, undefined, `${r.method} ${r.url.slice(0, 200)}: ${problem}`);
      }),
      { numRuns: INJECTED, seed: Number(process.env.FC_SEED ?? 20261123), endOnFailure: false },
    );
    assert.deepEqual(t.logs.filter((l) => /"level":(50|60)/.test(l)).slice(0, 3), [], 'errors were logged');
    t.logs.length = 0;
    const growth = heapMb() - heapBefore;
    assert.ok(growth < HEAP_BOUND_MB, `heap grew ${growth.toFixed(1)} MB`);
    assert.equal((await t.store.getAccount(accountId))!.points, STARTING_POINTS, 'a malformed request was charged');
    // The corpus reaches many distinct refusals, not one status over and over.
    for (const status of [401, 404, 405, 413, 415, 422]) assert.ok(statuses.has(status), `no ${status} among ${[...statuses.keys()]}`);
    assert.ok(![...statuses.keys()].some((s) => s >= 500));
  });

  test('router refusals come in the envelope: bad percent-encoding is 400, an overlong segment 422', async () => {
    const cases: [string, number, string][] = [
      ['/v1/bank/%FF', 400, 'bad_request'],
      ['/v1/%C3%28/latest', 400, 'bad_request'],
      [`/v1/${'A'.repeat(300)}/latest`, 422, 'invalid_parameter'],
      [`/v1/rate/EUR/${'B'.repeat(150)}`, 422, 'invalid_parameter'],
    ];
    for (const [url, status, error] of cases) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: key } });
      assert.equal(res.statusCode, status, url);
      assert.equal(res.json().error, error);
      assert.equal(res.json().code, status);
      assert.equal(res.headers['cache-control'], 'no-store');
    }
  });

  test(`${RAW} raw-socket requests get a 4xx envelope or a clean close, never a hang`, async () => {
    let answered = 0;
    const pointsBefore = (await t.store.getAccount(accountId))!.points;
    await fc.assert(
      fc.asyncProperty(rawRequest(key), async (bytes) => {
        const answer = (await rawExchange(port, bytes)).toString('latin1');
        if (answer === '') return; // unparseable bytes: the server closed without a word
        answered++;
        const parsed = parseAnswer(answer);
        assert.ok(parsed, `not an HTTP answer: ${JSON.stringify(answer.slice(0, 200))}`);
        const problem = envelopeProblem(parsed.status, parsed.body, bytes.startsWith('HEAD') ? 'HEAD' : 'GET', parsed.headers);
        assert.equal(problem, undefined, `${JSON.stringify(bytes.slice(0, 120))}: ${problem}`);
      }),
      { numRuns: RAW, seed: 20261123, endOnFailure: false },
    );
    assert.ok(answered > RAW / 2, `only ${answered} of ${RAW} raw requests got an answer`);
    assert.equal((await t.store.getAccount(accountId))!.points, pointsBefore);
    // The server still serves a good request afterwards.
    const ok = await fetch(`http://127.0.0.1:${port}/v1/EUR/latest`, { headers: { authorization: key } });
    assert.equal(ok.status, 200);
    assert.equal((await ok.json()).rates.EUR, 1);
  });
});
