// kurs-client against a real Kurs server on loopback: every method, KursError, Retry-After, the ETag
// cache, timeouts and aborts, exact digits; and the committed types match the served document.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { KursClient, KursError, parseExact } from '../client/src/index.js';
import { currentTypes, TYPES_FILE } from '../client/scripts/generate-types.js';
import { testApp, type TestApp } from './helpers.js';

/** The KursError a call ends with; fails the test when it succeeds or throws anything else. */
const failure = (call: Promise<unknown>): Promise<KursError> =>
  call.then(
    () => assert.fail('expected a KursError'),
    (e: unknown) => {
      assert.ok(e instanceof KursError, String(e));
      return e;
    },
  );

describe('kurs-client against a live server', () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let client: KursClient;
  before(async () => {
    t = await testApp();
    apiKey = (await t.key({ plan: 'business', points: 1000 })).key;
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    client = new KursClient({ baseUrl, apiKey });
  });
  after(() => t.close());

  test('one method per endpoint, typed answers', async () => {
    const latest = await client.latest('eur');
    assert.equal((latest.rates as Record<string, number>).EUR, 1);
    const withAmount = await client.latest('EUR', { amount: 100 });
    assert.equal((withAmount.rates as Record<string, { rate: number; converted: number }>).EUR!.converted, 100);
    const pair = await client.rate('EUR', 'USD', { amount: '2.5' });
    assert.equal(pair.base, 'EUR');
    assert.equal(pair.amount, 2.5);
    assert.ok(pair.rate > 0);
    const sources = await client.sources('EUR', 'USD');
    assert.ok(sources.legs.length > 0);
    const converted = await client.convert('EUR', ['USD', 'GBP', 'XYZ'], { amount: 10 });
    assert.deepEqual(converted.missing, ['XYZ']);
    assert.ok(converted.rates.USD!.converted > 0);
    const one = await client.convert('EUR', 'USD');
    assert.deepEqual(Object.keys(one.rates), ['USD']);
    const bank = await client.bank('ecbf', { format: 'full', reciprocal: true });
    assert.equal(bank.meta.base_currency, 'EUR');
    assert.ok(Array.isArray(bank.rates));
    assert.ok((await client.banks()).banks.some((b) => b.bank_code === 'ECBF'));
    assert.ok((await client.currencies()).currencies.some((c) => c.currency === 'JPY'));
    const usage = await client.usage();
    assert.equal(usage.plan, 'business');
    assert.equal(usage.points, 1000 - 9, 'nine charged calls before it');
  });

  test('errors are KursError with the D1 code, details and the balance', async () => {
    const err = await failure(client.latest('EUR', { amount: -1 }));
    assert.equal(err.status, 422);
    assert.equal(err.error, 'invalid_parameter');
    assert.equal(err.details[0]?.field, 'amount');
    assert.equal(typeof err.pointsRemaining, 'number');
    const missing = await failure(client.bank('ZZZZ'));
    assert.equal(missing.error, 'not_found');
    const anonymous = await failure(new KursClient({ baseUrl }).usage());
    assert.deepEqual([anonymous.status, anonymous.error, anonymous.pointsRemaining], [401, 'invalid_key', undefined]);
  });

  test('exact: true gives every number as its decimal text, digits a double would lose included', async () => {
    const exact = new KursClient({ baseUrl, apiKey, exact: true });
    const big = await exact.rate('EUR', 'JPY', { amount: '999999999999999.99' });
    assert.match(big.converted, /^\d{18}\.\d{1,6}$/);
    const plain = await client.rate('EUR', 'JPY', { amount: '999999999999999.99' });
    assert.notEqual(String(plain.converted), big.converted, 'a double cannot hold this figure');
    assert.equal(big.amount, '999999999999999.99');
    assert.equal(big.code, '200');
    assert.deepEqual(parseExact('{"a":"1.0 \\"2\\"","b":[1.10,-2e-3],"c":null}'), { a: '1.0 "2"', b: ['1.10', '-2e-3'], c: null });
  });

  test('the ETag cache makes a repeated poll of /latest free', async () => {
    const cached = new KursClient({ baseUrl, apiKey, etagCache: true });
    const before = (await client.usage()).points;
    const first = await cached.latest('USD');
    const second = await cached.latest('USD');
    assert.deepEqual(second, first);
    assert.equal((await client.usage()).points, before - 1, 'the second call was a free 304');
  });

  test('Retry-After on 429 is honoured a bounded number of times; too long a wait is thrown at once', async () => {
    const starter = (await t.key({ plan: 'starter', points: 1000 })).key;
    const limited = new KursClient({ baseUrl, apiKey: starter, maxRetryAfterMs: 0 });
    let refused: KursError | undefined;
    for (let i = 0; i < 70 && !refused; i++) refused = await limited.usage().then(() => undefined, (e: unknown) => (e instanceof KursError ? e : assert.fail(String(e))));
    assert.ok(refused, 'no 429 within 70 requests on a 60/minute plan');
    assert.equal(refused.error, 'rate_limited');
    assert.ok(refused.retryAfter! >= 0 && refused.retryAfter! <= 60);
    // The wire below the client answers 429 twice, then lets the real server answer.
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      calls++;
      return calls <= 2 ? new Response('{"code":429,"message":"slow down","error":"rate_limited"}', { status: 429, headers: { 'retry-after': '0' } }) : fetch(input, init);
    };
    assert.equal((await new KursClient({ baseUrl, apiKey, fetch: flaky }).usage()).plan, 'business');
    assert.equal(calls, 3);
    calls = 0;
    const gaveUp = await failure(new KursClient({ baseUrl, apiKey, fetch: flaky, retries: 1 }).usage());
    assert.deepEqual([gaveUp.status, calls], [429, 2]);
  });

  test('a timeout and an AbortSignal end a request with KursError', async () => {
    // A socket that accepts and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      const slow = new KursClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey, timeoutMs: 200 });
      const timedOut = await failure(slow.usage());
      assert.deepEqual([timedOut.status, timedOut.error], [0, 'timeout']);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const aborted = await failure(slow.usage({ signal: controller.signal, timeoutMs: 5_000 }));
      assert.deepEqual([aborted.status, aborted.error], [0, 'aborted']);
    } finally {
      silent.close();
    }
  });
});

test('the committed client types match the OpenAPI document (run `npm run client:types` when not)', async () => {
  assert.equal(readFileSync(TYPES_FILE, 'utf8'), await currentTypes());
});
