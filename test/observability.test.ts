// Observability (issue 6.3): /metrics in Prometheus format with request, latency, points, refusal,
// source and blend series; JSON request logs with a request id and no key in any form.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

/** The value of one sample line, `name{labels} value`, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2] ? m[2].split(',') : [];
    if (wanted.every((w) => have.includes(w))) return Number(m[3]);
  }
  return undefined;
}

describe('/metrics', () => {
  let t: TestApp;
  let key: string;
  let text: string;
  before(async () => {
    t = await testApp();
    ({ key } = await t.key({ plan: 'business', points: 1000 }));
    const { key: poor } = await t.key({ plan: 'business', points: 0 });
    const { key: starter } = await t.key({ plan: 'starter', points: 1000 });
    // The seed records no fetch (a seed is not a fetch): ECBF's success is a real one.
    await t.store.recordFetch({ source: 'ECBF', at: '2026-04-14T12:00:00.000Z' });
    await t.store.recordFetch({ source: 'BCAN', at: '2026-04-14T11:00:00.000Z', error: 'HTTP 503 from feed' });
    const get = (url: string, k?: string) => t.app.inject({ method: 'GET', url, headers: k ? { authorization: k } : {} });
    for (let i = 0; i < 3; i++) await get('/v1/EUR/latest', key);
    await get('/v1/rate/EUR/USD', key);
    await get('/v1/banks', poor);
    await get('/v1/bank/ECBF', starter);
    for (let i = 0; i < 61; i++) await get('/v1/currencies', starter);
    await get('/v1/EUR/latest');
    await get('/no/such/thing/123');
    const res = await get('/metrics');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    text = res.body;
  });
  after(() => t.close());

  test('counts requests by method, route pattern and status, unmatched URLs under one label', () => {
    assert.equal(sample(text, 'kurs_http_requests_total', { route: '/v1/:base_currency/latest', status: '200' }), 3);
    assert.equal(sample(text, 'kurs_http_requests_total', { route: '/v1/:base_currency/latest', status: '401' }), 1);
    assert.equal(sample(text, 'kurs_http_requests_total', { route: '/v1/currencies', status: '200' }), 60);
    assert.equal(sample(text, 'kurs_http_requests_total', { route: 'unmatched', status: '404' }), 1);
    assert.ok(!text.includes('/no/such/thing'), 'a raw URL became a label');
  });

  test('a latency histogram per route', () => {
    assert.equal(sample(text, 'kurs_http_request_duration_seconds_count', { route: '/v1/:base_currency/latest', method: 'GET' }), 4);
    assert.equal(sample(text, 'kurs_http_request_duration_seconds_bucket', { route: '/v1/:base_currency/latest', le: '+Inf' }), 4);
    assert.ok(sample(text, 'kurs_http_request_duration_seconds_sum', { route: '/v1/:base_currency/latest' })! > 0);
  });

  test('points charged per endpoint and refusals by status and error code', () => {
    assert.equal(sample(text, 'kurs_points_charged_total', { endpoint: 'latest' }), 3);
    assert.equal(sample(text, 'kurs_points_charged_total', { endpoint: 'rate' }), 1);
    assert.equal(sample(text, 'kurs_points_charged_total', { endpoint: 'currencies' }), 60);
    assert.equal(sample(text, 'kurs_http_errors_total', { status: '402', error: 'points_exhausted' }), 1);
    assert.equal(sample(text, 'kurs_http_errors_total', { status: '403', error: 'plan_forbidden' }), 1);
    assert.equal(sample(text, 'kurs_http_errors_total', { status: '429', error: 'rate_limited' }), 1);
    assert.equal(sample(text, 'kurs_http_errors_total', { status: '401', error: 'invalid_key' }), 1);
  });

  test('per-source last success and failures, and the age of the blend and its data', () => {
    assert.equal(sample(text, 'kurs_source_last_success_timestamp_seconds', { source: 'ECBF' }), Date.parse('2026-04-14T12:00:00Z') / 1000);
    assert.equal(sample(text, 'kurs_source_consecutive_failures', { source: 'BCAN' }), 1);
    assert.equal(sample(text, 'kurs_source_consecutive_failures', { source: 'ECBF' }), 0);
    assert.equal(sample(text, 'kurs_source_missed_publications', { source: 'ECBF' }), 0);
    assert.equal(sample(text, 'kurs_sources'), t.market.current.banks.size);
    assert.equal(sample(text, 'kurs_blend_age_seconds'), 0, 'the fixed clock has not moved since the rebuild');
    // Newest publication in the seed: 2026-04-13 15:00 UTC; the clock says 2026-04-14 12:00.
    assert.equal(sample(text, 'kurs_rates_newest_publication_age_seconds'), 21 * 3600);
    assert.ok(sample(text, 'kurs_currencies_fresh')! > 20);
    assert.ok(sample(text, 'kurs_currencies_quoted')! > sample(text, 'kurs_currencies_fresh')!);
    assert.ok(sample(text, 'process_cpu_user_seconds_total') !== undefined, 'the default process metrics');
    assert.match(text, /^kurs_info\{version="\d+\.\d+\.\d+"\} 1$/m);
  });

  test('no key appears in the metrics', () => {
    assert.ok(!text.includes(key));
    assert.ok(!/kurs_[0-9A-Za-z]{32}/.test(text));
  });
});

describe('request logs', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.close());

  test('are JSON lines with a request id, and show neither the header key nor the api_key query', async () => {
    const { key } = await t.key();
    const viaHeader = await t.app.inject({ method: 'GET', url: '/v1/EUR/latest', headers: { authorization: key } });
    const viaQuery = await t.app.inject({ method: 'GET', url: `/v1/USD/latest?amount=2&api_key=${key}` });
    const wrong = await t.app.inject({ method: 'GET', url: '/v1/USD/latest', headers: { authorization: `Bearer ${key}` } });
    assert.deepEqual([viaHeader.statusCode, viaQuery.statusCode, wrong.statusCode], [200, 200, 401]);
    const lines = t.logs.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    assert.ok(lines.length >= 3, `${lines.length} log lines`);
    const all = JSON.stringify(lines);
    assert.ok(!all.includes(key.slice(5)), 'a key reached the log');
    // One line per answered request (docs/performance.md), with its id, the redacted URL and the status.
    const answered = lines.filter((l) => l.msg === 'request');
    assert.equal(answered.length, 3);
    assert.match(answered[1]!.url, /^\/v1\/USD\/latest\?amount=2&api_key=\[redacted\]$/);
    for (const l of answered) assert.match(l.reqId, /^[0-9a-f-]{36}$/);
    assert.equal(new Set(answered.map((l) => l.reqId)).size, 3);
    assert.deepEqual(answered.map((l) => l.status), [200, 200, 401]);
    assert.ok(answered.every((l) => l.headers === undefined && l.req === undefined), 'headers are not logged');
  });
});
