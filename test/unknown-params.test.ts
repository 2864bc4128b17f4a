// D17: every /v1 endpoint answers 422 naming each query parameter it does not know, after the key,
// plan and rate-limit checks (D2); `api_key` and `_` are always accepted. The routes are read from
// /openapi.json, so an endpoint added later is covered by this file without editing it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { testApp, type TestApp } from './helpers.js';

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  example?: unknown;
}
interface Operation {
  method: 'GET' | 'POST';
  path: string;
  /** The path with its parameters filled from the document's examples. */
  url: string;
  query: string[];
  /** The required query parameters with the document's examples (a range's start and end). */
  required: string;
}

const BODIES: Record<string, unknown> = { '/v1/rates/convert': { base: 'EUR', targets: ['USD'] } };

function operations(doc: { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }): Operation[] {
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const params = op.parameters ?? [];
        const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => String(params.find((p) => p.in === 'path' && p.name === name)?.example ?? 'EUR'));
        const required = params.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${String(p.example)}`).join('&');
        return { method: method.toUpperCase() as Operation['method'], path, url, query: params.filter((p) => p.in === 'query').map((p) => p.name), required };
      }),
    );
}

/** `?a=1` after the operation's required parameters: `?start=…&end=…&a=1`. */
const withRequired = (required: string, query: string) => {
  const parts = [required, query.replace(/^\?/, '')].filter((p) => p !== '');
  return parts.length > 0 ? `?${parts.join('&')}` : '';
};

describe('unknown query parameters (D17)', () => {
  let t: TestApp;
  let key: string;
  let ops: Operation[];
  before(async () => {
    // The document's examples ask about past days (2008): the whole bundled history, materialised.
    t = await testApp({ seedHistory: true });
    ({ key } = await t.key({ plan: 'business', points: 100_000 }));
    ops = operations((await t.app.inject('/openapi.json')).json());
  });
  after(() => t.close());

  const send = (op: Operation, query: string, headers: Record<string, string> = { authorization: key }): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: op.method, url: `${op.url}${withRequired(op.required, query)}`, headers, ...(BODIES[op.path] ? { payload: BODIES[op.path] as object } : {}) });

  const assertUnknown = (res: LightMyRequestResponse, names: string[], where: string) => {
    assert.equal(res.statusCode, 422, `${where}: ${res.body}`);
    const body = res.json() as { code: number; error: string; message: string; details: { field: string; message: string }[] };
    assert.equal(body.code, 422, where);
    assert.equal(body.error, 'invalid_parameter', where);
    assert.deepEqual(body.details.map((d) => d.field), names, where);
    assert.match(body.message, new RegExp(`^${names[0]} is not a parameter of this endpoint`), where);
    assert.equal(res.headers['x-points-cost'], '0', where);
  };

  test('the document lists every /v1 route this suite checks', () => {
    const listed = ops.map((o) => `${o.method} ${o.path}`);
    for (const route of ['GET /v1/{base_currency}/latest', 'GET /v1/rate/{base_currency}/{target_currency}', 'GET /v1/rate/{base_currency}/{target_currency}/sources',
      'POST /v1/rates/convert', 'GET /v1/bank/{bank_code}', 'GET /v1/banks', 'GET /v1/currencies', 'GET /v1/usage']) {
      assert.ok(listed.includes(route), route);
    }
  });

  test('every /v1 route answers a bare request with 200 (the baseline the 422s below differ from)', async () => {
    for (const op of ops) assert.equal((await send(op, '')).statusCode, 200, `${op.method} ${op.url}`);
  });

  test('every /v1 route rejects the misspelling dat= with 422 naming it, and charges nothing', async () => {
    for (const op of ops) assertUnknown(await send(op, '?dat=2010-04-21'), ['dat'], `${op.method} ${op.url}`);
  });

  test('every route that does not declare date rejects date= rather than answering for now', async () => {
    const undated = ops.filter((o) => !o.query.includes('date'));
    assert.ok(undated.some((o) => o.path === '/v1/banks'));
    for (const op of undated) assertUnknown(await send(op, '?date=2010-04-21'), ['date'], `${op.method} ${op.url}`);
  });

  test('every unknown parameter is named once, in the order sent, beside known ones', async () => {
    const latest = ops.find((o) => o.path === '/v1/{base_currency}/latest')!;
    const res = await send(latest, '?amount=10&dat=1&Amount=2&x=&x=2');
    assertUnknown(res, ['dat', 'Amount', 'x'], 'latest');
    assert.match(res.json().details[0].message, /it accepts amount$/);
    const currencies = ops.find((o) => o.path === '/v1/currencies')!;
    assert.match((await send(currencies, '?q=1')).json().details[0].message, /it takes none$/);
  });

  test('an unknown name is reported before a bad value of a known one', async () => {
    const latest = ops.find((o) => o.path === '/v1/{base_currency}/latest')!;
    assertUnknown(await send(latest, '?amount=abc&dat=1'), ['dat'], 'latest');
    assert.equal((await send(latest, '?amount=abc')).json().details[0].field, 'amount');
  });

  test('api_key and the cache-buster _ are accepted everywhere, and every declared parameter too', async () => {
    for (const op of ops) {
      const res = await send(op, `?_=1700000000000&api_key=${key}`, {});
      assert.equal(res.statusCode, 200, `${op.method} ${op.url}: ${res.body}`);
    }
    const bank = ops.find((o) => o.path === '/v1/bank/{bank_code}')!;
    const full = await send(bank, '?format=full&reciprocal=1&_=3');
    assert.equal(full.statusCode, 200);
    assert.ok(Array.isArray(full.json().rates));
    const latest = ops.find((o) => o.path === '/v1/{base_currency}/latest')!;
    assert.equal((await send(latest, '?amount=2&_=')).json().rates.EUR.converted, 2);
  });

  test('the key is checked first: no key is 401 and an unknown parameter changes nothing', async () => {
    for (const op of ops) {
      const res = await send(op, '?dat=1', {});
      assert.equal(res.statusCode, 401, `${op.method} ${op.url}`);
      assert.equal(res.json().error, 'invalid_key');
    }
  });

  test('then the plan: a starter key on a bank route is 403, an expired plan 402', async () => {
    const { key: starter } = await t.key({ plan: 'starter', points: 100 });
    const bank = ops.find((o) => o.path === '/v1/bank/{bank_code}')!;
    const forbidden = await send(bank, '?dat=1', { authorization: starter });
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.json().error, 'plan_forbidden');
    const { key: expired } = await t.key({ plan: 'business', points: 100, expiresAt: '2020-01-01T00:00:00.000Z' });
    const latest = ops.find((o) => o.path === '/v1/{base_currency}/latest')!;
    assert.equal((await send(latest, '?dat=1', { authorization: expired })).json().error, 'plan_expired');
  });

  test('then the request limit: past the plan\'s per-minute limit it is 429, not 422', async () => {
    const { key: starter } = await t.key({ plan: 'starter', points: 1_000 });
    const usage = ops.find((o) => o.path === '/v1/usage')!;
    let last: LightMyRequestResponse | undefined;
    // starter allows 60 requests a minute; the 61st is over the limit whatever its parameters.
    for (let i = 0; i < 61; i++) last = await send(usage, '?dat=1', { authorization: starter });
    assert.equal(last!.statusCode, 429);
    assert.equal(last!.json().error, 'rate_limited');
  });
});
