// POST /v1/rates/convert answers a body read by the flat parser (src/http/flat-json.ts) exactly as it
// answers the same JSON read by Fastify's generic parser. Each generated body is sent twice: as it is,
// and as its twin with the first key's first letter written as a \u escape, which means the same
// JSON but makes the flat parser decline. Statuses, bodies and headers must be the same.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { parseFlatJson } from '../src/http/flat-json.js';
import type { TestApp } from './helpers.js';
import { datasetApp } from './support/dataset.js';

const valid = fc.constantFrom('USD', 'usd', 'JPY', 'CHF', 'AFN', 'XYZ', 'EUR', 'HRK', 'gbp');
const code = fc.oneof({ arbitrary: valid, weight: 4 }, fc.constantFrom('US', 'USDX', 'U1D', '', 'ÉUR', 'a'.repeat(17)));
/** Mostly what a client sends, with every kind of mistake mixed in. */
const body = fc.record(
  {
    base: fc.oneof({ arbitrary: fc.constantFrom('EUR', 'usd', 'JPY'), weight: 6 }, code, fc.constantFrom(7, 'EURO', 'XYZ')),
    amount: fc.oneof(
      { arbitrary: fc.constantFrom('1000.37', '0.000001', '1e3', '999999999999999.99', '42'), weight: 4 },
      fc.constantFrom('0', '-1', 'abc', '', '1e999', 'x'.repeat(65)),
      fc.double({ noNaN: true }),
      fc.integer(),
    ),
    targets: fc.oneof({ arbitrary: fc.array(valid, { minLength: 1, maxLength: 12 }), weight: 6 }, { arbitrary: fc.array(code, { minLength: 1, maxLength: 12 }), weight: 2 }, fc.array(fc.oneof(code, fc.integer()), { maxLength: 4 }), fc.constantFrom('USD', 501)),
  },
  { requiredKeys: [] },
);
/** A date on one body in five, well-formed or not (dated conversions have their own tests); a field
 *  the body does not have (a 422 since D24) on one in ten. */
const dated = fc
  .tuple(body, fc.option(fc.constantFrom('2026-06-09', '2026-06-08', '2026-02-30', '2027-01-01', 'yesterday', 5), { freq: 4 }), fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, fc.constantFrom('x', 1)))
  .map(([b, date, extra]) => ({ ...b, ...(date === null ? {} : { date }), ...(extra === undefined ? {} : { extra }) }));

/** The same JSON with the first key's first character escaped: the flat parser leaves it alone. */
const twin = (text: string) => text.replace(/^\{"(.)/, (_, c: string) => `{"\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('POST /v1/rates/convert: flat and generic parsing answer alike', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await datasetApp();
    ({ key } = await t.key({ plan: 'business', points: 1_000_000 }));
  });
  after(() => t.close());
  const post = (payload: string) =>
    t.app.inject({ method: 'POST', url: '/v1/rates/convert', headers: { authorization: key, 'content-type': 'application/json' }, payload });
  /** What must not differ between two answers (the balance does, as each 200 is charged). */
  const outcome = (res: Awaited<ReturnType<typeof post>>) => {
    const { 'x-points-remaining': _balance, date: _date, ...headers } = res.headers;
    return { status: res.statusCode, body: res.body, headers };
  };

  test('generated bodies, valid and not, get the same answer by either parser', async () => {
    let flat = 0;
    let ok = 0;
    await fc.assert(
      fc.asyncProperty(dated, async (b) => {
        const text = JSON.stringify(b);
        if (text === '{}') return;
        const other = twin(text);
        assert.notEqual(other, text);
        assert.equal(parseFlatJson(Buffer.from(other)), undefined);
        if (parseFlatJson(Buffer.from(text)) !== undefined) flat++;
        const [direct, generic] = [await post(text), await post(other)];
        assert.deepEqual(outcome(direct), outcome(generic), text);
        if (direct.statusCode === 200) ok++;
      }),
      { numRuns: 600 },
    );
    assert.ok(flat > 300 && ok > 40, `${flat} bodies parsed flat, ${ok} answered 200: the property tests too little`);
  });
});
