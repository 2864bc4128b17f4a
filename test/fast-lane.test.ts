// The fast lane (src/http/fast-lane.ts) changes no answer: the same requests, in the same order, to
// an app with the lane and to one without give the same status, headers (but Date) and body, charge
// the same points, count the same usage and metrics and log the same request lines. Real HTTP over
// loopback: the lane sits in front of Fastify in the node:http server, which inject() bypasses.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { hashKey as hashOf } from '../src/access/keys.js';
import { requestLine } from '../src/http/request-log.js';
import { HistoryReadiness } from '../src/ingest/seed-history.js';
import { testApp, type TestApp } from './helpers.js';

const DAY = '2026-04-14';
/** An account on each app, made in the same order so that both answer with the same balances. */
type Keys = Record<'business' | 'starter' | 'poor' | 'expired', string>;

interface Side {
  t: TestApp;
  url: string;
  keys: Keys;
}

async function side(fastLane: boolean): Promise<Side> {
  const t = await testApp({ fastLane, history: true, keyCache: { ttlMs: 600_000 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const keys: Keys = {
    business: (await t.key({ plan: 'business', points: 1000 })).key,
    starter: (await t.key({ plan: 'starter', points: 1000 })).key,
    poor: (await t.key({ plan: 'business', points: 2 })).key,
    expired: (await t.key({ plan: 'business', points: 1000, expiresAt: '2026-04-01T00:00:00.000Z' })).key,
  };
  return { t, url, keys };
}

interface Seen {
  status: number;
  headers: [string, string][];
  body: string;
}

interface Init {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

async function ask(s: Side, path: string, key: keyof Keys | 'unknown' | 'none', init: Init = {}): Promise<Seen> {
  const authorization = key === 'none' ? undefined : key === 'unknown' ? `kurs_${'A'.repeat(32)}` : s.keys[key];
  const res = await fetch(`${s.url}${path.replace('KEY', authorization ?? '')}`, { method: init.method ?? 'GET', headers: { ...(authorization && !path.includes('KEY') ? { authorization } : {}), ...init.headers }, body: init.body });
  return { status: res.status, headers: [...res.headers].filter(([name]) => name !== 'date'), body: await res.text() };
}

const metric = (text: string, name: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(name))
    .sort();

describe('the fast lane answers exactly as Fastify would', () => {
  let on: Side;
  let off: Side;
  before(async () => {
    on = await side(true);
    off = await side(false);
  });
  after(async () => {
    await on.t.close();
    await off.t.close();
  });

  /** Asks both apps the same thing and requires the same answer; returns it. */
  async function same(path: string, key: keyof Keys | 'unknown' | 'none', init: Init = {}): Promise<Seen> {
    const a = await ask(on, path, key, init);
    const b = await ask(off, path, key, init);
    assert.deepEqual(a, b, `${init.method ?? 'GET'} ${path} (${key}) differs with the fast lane`);
    return a;
  }

  test('every kind of request, in the lane and beside it, gets the same answer on both apps', async () => {
    const lanedBefore = Number(metric(await (await fetch(`${on.url}/metrics`)).text(), 'kurs_http_fast_lane_total')[0]!.split(' ')[1]);
    // The first request of each key fills the key cache through Fastify's path; the rest can take the lane.
    for (const key of ['business', 'starter'] as const) assert.equal((await same('/v1/USD/latest', key)).status, 200);
    const statuses = new Map<string, number>();
    const paths = [
      '/v1/USD/latest',
      '/v1/eur/latest',
      '/v1/rate/EUR/USD',
      '/v1/rate/EUR/USD?amount=1234.56',
      '/v1/rate/usd/jpy?amount=0.1',
      '/v1/rate/GBP/CHF?amount=1000000000000000',
      '/v1/ABC/latest',
      '/v1/rate/EUR/ABC',
      '/v1/rate/EUR/USD?amount=abc',
      '/v1/rate/EUR/USD?amount=1..2',
      '/v1/rate/EUR/USD?amount=',
      '/v1/rate/EUR/USD?amount=1&foo=2',
      '/v1/rate/EUR/USD?date=2026-04-10',
      '/v1/USD/latest?amount=10',
      '/v1/USD/latest/',
      '/v1/USD/latest?api_key=KEY',
      '/v1/rate/EUR/XAF',
      '/v1/rate/EUR/VES',
      '/v1/rate/EUR/ARS',
      '/v1/rate/EUR/KPW',
      '/v1/USD/2026-04-10',
      '/v1/usd/2026-04-11',
      '/v1/EUR/2026-01-02',
      '/v1/USD/2027-01-01',
      '/v1/USD/2026-02-30',
      '/v1/USD/1950-01-02',
      '/v1/ABC/2026-04-10',
      '/v1/USD/2026-04-10?amount=5',
      '/v1/USD/20260410--',
    ];
    for (const path of paths) {
      for (const key of ['business', 'starter'] as const) {
        const seen = await same(path, key);
        statuses.set(path, seen.status);
        assert.ok(seen.status !== 500, seen.body);
      }
    }
    // The list covers answers of every kind the lane hands over: 422s, a 404 without a fresh rate.
    const found = new Set(statuses.values());
    for (const status of [200, 404, 422]) assert.ok(found.has(status), `no ${status} among ${[...statuses].join(' ')}`);
    assert.ok((await same('/v1/rate/EUR/USD', 'starter')).headers.some(([name]) => name === 'ratelimit'), 'a limited plan answers with its RateLimit fields');

    // Beside the lane: conditional, cross-origin, HEAD, no key, unknown and expired keys.
    const etag = (await same('/v1/USD/latest', 'business')).headers.find(([n]) => n === 'etag')![1];
    assert.equal((await same('/v1/USD/latest', 'business', { headers: { 'if-none-match': etag } })).status, 304);
    assert.equal((await same('/v1/USD/latest', 'business', { headers: { origin: 'https://app.example' } })).status, 200);
    assert.equal((await same('/v1/rate/EUR/USD', 'business', { method: 'HEAD' })).status, 200);
    assert.equal((await same('/v1/USD/latest', 'none')).status, 401);
    assert.equal((await same('/v1/USD/latest', 'unknown')).status, 401);
    assert.equal((await same('/v1/USD/latest', 'expired')).status, 402);
    assert.equal((await same('/v1/USD/latest', 'expired')).status, 402);
    // Points run out in the lane: the refused charge is answered by Fastify's path, as a 402.
    assert.equal((await same('/v1/USD/latest', 'poor')).status, 200);
    assert.equal((await same('/v1/USD/latest', 'poor')).status, 200);
    const refused = await same('/v1/USD/latest', 'poor');
    assert.equal(refused.status, 402);
    assert.match(refused.body, /points_exhausted/);

    // The lane did serve: every plainly valid request after the first of each key.
    const laned = Number(metric(await (await fetch(`${on.url}/metrics`)).text(), 'kurs_http_fast_lane_total')[0]!.split(' ')[1]) - lanedBefore;
    assert.ok(laned >= 20, `the lane served ${laned} requests`);
    assert.equal(Number(metric(await (await fetch(`${off.url}/metrics`)).text(), 'kurs_http_fast_lane_total')[0]!.split(' ')[1]), 0);
  });

  test('bulk conversions, plainly valid or not, get the same answer on both apps', async () => {
    const lanedBefore = Number(metric(await (await fetch(`${on.url}/metrics`)).text(), 'kurs_http_fast_lane_total')[0]!.split(' ')[1]);
    const json = { 'content-type': 'application/json' };
    const bodies: [string, Record<string, string>][] = [
      ['{"base":"EUR","amount":"1234.56","targets":["USD","JPY","GBP"]}', json],
      ['{"base":"EUR","amount":"1234.56","targets":["USD","JPY","GBP"]}', json],
      ['{"base":"usd","amount":0.1,"targets":["eur","chf","EUR","XYZ","USD"]}', { 'content-type': 'application/json; charset=utf-8' }],
      ['{"targets":["USD"],"base":"EUR"}', json],
      [' { "base" : "EUR" , "targets" : [ "USD" ] } ', json],
      ['{"base":"EUR","amount":"1000000000000000","targets":["KWD","VND"]}', json],
      ['{"base":"EUR","targets":["ABC","XYZ"]}', json],
      ['{"base":"EUR","targets":["US","USDD"]}', json],
      ['{"base":"ABC","targets":["USD"]}', json],
      ['{"base":"EUR","amount":"abc","targets":["USD"]}', json],
      ['{"base":"EUR","amount":-5,"targets":["USD"]}', json],
      ['{"base":"EUR","targets":"USD"}', json],
      ['{"base":"EUR","targets":[]}', json],
      ['{"base":"EUR","targets":["USD"],"extra":1}', json],
      ['{"base":"EUR","targets":["USD"],"date":"2026-04-10"}', json],
      ['{"base":"EUR","targets":["USD"],"base":"GBP"}', json],
      ['{"base":"EUR","targets":["USD"]', json],
      ['{"base":"EUR","targets":["U\\u0053D"]}', json],
      ['{"base":"EUR","targets":["USD"]}', { 'content-type': 'text/plain' }],
    ];
    const statuses = new Set<number>();
    for (const [body, headers] of bodies) {
      for (const key of ['business', 'starter'] as const) {
        const seen = await same('/v1/rates/convert', key, { method: 'POST', headers, body });
        assert.ok(seen.status !== 500, seen.body);
        statuses.add(seen.status);
      }
    }
    // Without a key, unknown, expired, out of points, and cross-origin: Fastify's answers on both.
    for (const key of ['none', 'unknown', 'expired'] as const) assert.ok([401, 402].includes((await same('/v1/rates/convert', key, { method: 'POST', headers: json, body: bodies[0]![0] })).status));
    assert.equal((await same('/v1/rates/convert', 'business', { method: 'POST', headers: { ...json, origin: 'https://app.example' }, body: bodies[0]![0] })).status, 200);
    for (const status of [200, 415, 422]) assert.ok(statuses.has(status), `no ${status} among ${[...statuses].join(' ')}`);
    const laned = Number(metric(await (await fetch(`${on.url}/metrics`)).text(), 'kurs_http_fast_lane_total')[0]!.split(' ')[1]) - lanedBefore;
    assert.ok(laned >= 10, `the lane served ${laned} conversions`);
  });

  test('a conversion whose client goes away before its body ends is neither answered nor charged, and the server goes on', async () => {
    const before = (await on.t.store.findKey(hashOf(on.keys.business)))!.account.points;
    const socket = connect((on.t.app.server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /v1/rates/convert HTTP/1.1\r\nhost: x\r\nauthorization: ${on.keys.business}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"base":"EUR",`);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.destroy();
    await closed;
    const seen = await same('/v1/rates/convert', 'business', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"base":"EUR","targets":["USD"]}' });
    assert.equal(seen.status, 200);
    assert.equal((await on.t.store.findKey(hashOf(on.keys.business)))!.account.points, before - 1);
  });

  test('a plan over its request limit gets the same 429s and RateLimit fields, counted once per request', async () => {
    const limited = { on: (await on.t.key({ plan: 'starter', points: 1000 })).key, off: (await off.t.key({ plan: 'starter', points: 1000 })).key };
    const answers: [Seen, Seen][] = [];
    for (let i = 0; i < 62; i++) {
      const get = async (s: Side, key: string) => {
        const res = await fetch(`${s.url}/v1/rate/EUR/USD`, { headers: { authorization: key } });
        return { status: res.status, headers: [...res.headers].filter(([n]) => n !== 'date'), body: await res.text() };
      };
      answers.push([await get(on, limited.on), await get(off, limited.off)]);
    }
    for (const [a, b] of answers) assert.deepEqual(a, b);
    assert.deepEqual(
      answers.map(([a]) => a.status),
      [...Array(60).fill(200), 429, 429],
    );
  });

  test('both apps charged, counted and logged the same', async () => {
    const metricsOf = async (s: Side) => {
      const text = await (await fetch(`${s.url}/metrics`)).text();
      // The tests asked each app's /metrics a different number of times.
      const counted = ['kurs_http_requests_total', 'kurs_points_charged_total', 'kurs_http_errors_total', 'kurs_http_request_duration_seconds_count'];
      return counted.flatMap((m) => metric(text, m)).filter((l) => !l.includes('route="/metrics"'));
    };
    assert.deepEqual(await metricsOf(on), await metricsOf(off));
    const accounts = async (s: Side) => (await Promise.all(Object.values(s.keys).map((k) => s.t.store.findKey(hashOf(k))))).map((f) => f!.account.points);
    assert.deepEqual(await accounts(on), await accounts(off));
    // Request lines: the same fields in the same order, the same method, URL and status, one per request.
    const lines = (s: Side) => s.t.logs.flatMap((l) => l.split('\n')).filter((l) => l.includes('"msg":"request"') && !l.includes('"url":"/metrics"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const shape = (s: Side) => lines(s).map((l) => `${Object.keys(l).join(',')} ${l.method} ${String(l.url).replace(/api_key=[^&]*/, '')} ${l.status}`);
    assert.deepEqual(shape(on), shape(off));
    assert.ok(lines(on).every((l) => typeof l.reqId === 'string' && typeof l.ms === 'number'));
    // Usage: the same requests and points per day for every account, as /v1/usage reports them
    // (what is stored plus what is counted and not yet written, so no wait for a flush).
    // Account and key ids differ between the apps; the ids are left out.
    const usage = (s: Side) => Promise.all(Object.values(s.keys).map(async (authorization) => (await fetch(`${s.url}/v1/usage`, { headers: { authorization } })).text().then((t) => t.replace(/(acc|key)_[A-Za-z0-9]+/g, 'ID'))));
    const counted = await usage(on);
    assert.deepEqual(counted, await usage(off));
    assert.ok(counted.some((report) => report.includes(`"today":{"date":"${DAY}","requests":`)), counted[0]);
  });

  test("the lane's request line is pino's line for the same request, byte for byte", async () => {
    await ask(off, '/v1/rate/EUR/USD?amount=12.5', 'business');
    const line = off.t.logs.flatMap((l) => l.split(/(?<=\n)/)).filter((l) => l.includes('"url":"/v1/rate/EUR/USD?amount=12.5"')).pop()!;
    const { reqId, ms, time } = JSON.parse(line) as { reqId: string; ms: number; time: number };
    assert.equal(requestLine(reqId, 'GET', '/v1/rate/EUR/USD?amount=12.5', 200, ms, time), line);
  });

  test('concurrent requests in the lane are each charged exactly once, and a balance never goes below 0', async () => {
    const { key, accountId } = await on.t.key({ plan: 'business', points: 100 });
    assert.equal((await fetch(`${on.url}/v1/USD/latest`, { headers: { authorization: key } })).status, 200);
    const statuses = await Promise.all(
      Array.from({ length: 150 }, async (_, i) => (await fetch(`${on.url}${i % 2 ? '/v1/USD/latest' : '/v1/rate/EUR/USD?amount=12.5'}`, { headers: { authorization: key } })).status),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 99);
    assert.equal(statuses.filter((s) => s === 402).length, 51);
    assert.equal((await on.t.store.getAccount(accountId))!.points, 0);
  });
});

test('while the seed history loads, a dated request in the lane is still 503 with Retry-After, and free', async () => {
  const loading = new HistoryReadiness();
  const t = await testApp({ history: true, historyLoaded: loading, keyCache: { ttlMs: 600_000 } });
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { key } = await t.key({ plan: 'business', points: 10 });
    const get = (path: string) => fetch(`${url}${path}`, { headers: { authorization: key } });
    assert.equal((await get('/v1/USD/latest')).status, 200);
    const waiting = await get('/v1/USD/2026-04-10');
    assert.equal(waiting.status, 503);
    assert.equal(waiting.headers.get('retry-after'), '10');
    assert.equal(((await waiting.json()) as { error: string }).error, 'unavailable');
    assert.equal(waiting.headers.get('x-points-remaining'), '9');
    loading.markLoaded();
    const ready = await get('/v1/USD/2026-04-10');
    assert.equal(ready.status, 200);
    assert.equal(((await ready.json()) as { date: string }).date, '2026-04-10');
    assert.equal(ready.headers.get('x-points-remaining'), '8');
  } finally {
    await t.close();
  }
});

test('keys that change on one kept-alive connection are each charged to their own account', async () => {
  const t = await testApp({ fastLane: true, keyCache: { ttlMs: 600_000 } });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const a = await t.key({ plan: 'business', points: 100 });
    const b = await t.key({ plan: 'business', points: 50 });
    const sockets = new Set<unknown>();
    const get = (authorization: string) =>
      new Promise<{ status: number; remaining: string | undefined }>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: '/v1/USD/latest', agent, headers: { authorization } }, (res) => {
          res.resume().on('end', () => resolve({ status: res.statusCode!, remaining: res.headers['x-points-remaining'] as string | undefined }));
        });
        req.on('socket', (s) => sockets.add(s)).on('error', reject).end();
      });
    // Each key's first request fills the key cache through Fastify's path; the rest are the lane's.
    const seen = [];
    for (const key of [a.key, b.key, a.key, a.key, b.key, `${a.key.slice(0, -1)}!`, a.key, `kurs_${'A'.repeat(32)}`, b.key]) seen.push(await get(key));
    assert.equal(sockets.size, 1, 'one connection throughout');
    assert.deepEqual(seen, [
      { status: 200, remaining: '99' },
      { status: 200, remaining: '49' },
      { status: 200, remaining: '98' },
      { status: 200, remaining: '97' },
      { status: 200, remaining: '48' },
      { status: 401, remaining: undefined },
      { status: 200, remaining: '96' },
      { status: 401, remaining: undefined },
      { status: 200, remaining: '47' },
    ]);
    assert.equal((await t.store.getAccount(a.accountId))!.points, 96);
    assert.equal((await t.store.getAccount(b.accountId))!.points, 47);
    // Every request after each key's first was the lane's: it served the key switches itself.
    const laned = metric(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text(), 'kurs_http_fast_lane_total')[0]!;
    assert.equal(Number(laned.split(' ')[1]), 5);
  } finally {
    agent.destroy();
    await t.close();
  }
});
