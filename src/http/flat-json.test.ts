import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import Fastify from 'fastify';
import { parseFlatJson } from './flat-json.js';

/** Fastify's own JSON parser, as our app configures it (poisoning: error): the generic path. */
const fastifyParser = Fastify().getDefaultJsonParser('error', 'error');
function generic(text: string): { ok: true; value: unknown } | { ok: false } {
  let out: { ok: true; value: unknown } | { ok: false } = { ok: false };
  fastifyParser({} as never, text, (err, value) => (out = err ? { ok: false } : { ok: true, value }));
  return out;
}

/** Where the flat parser answers, it answers exactly what the generic parser does, key order included. */
function agrees(bytes: Buffer): boolean {
  const flat = parseFlatJson(bytes);
  if (flat === undefined) return false;
  const g = generic(bytes.toString('utf8'));
  assert.ok(g.ok, `flat parser accepted what Fastify refuses: ${bytes.toString('latin1')}`);
  assert.deepStrictEqual(flat, g.value, bytes.toString('latin1'));
  assert.deepEqual(Object.keys(flat), Object.keys(g.value as object));
  assert.equal(Object.getPrototypeOf(flat), Object.prototype);
  return true;
}

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 12 });
const code = fc.oneof(fc.constantFrom('USD', 'EUR', 'usd', 'Jpy', 'XYZ', 'US', 'USDX', '', 'ÉUR', 'U\\SD', 'U"D'), printable);
const amount = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, 1e21, 5e-324, 1.5e300), printable, fc.constantFrom('1000.37', '1e3', '-1'));
const value = fc.oneof(code, amount, fc.array(code, { maxLength: 6 }), fc.array(fc.oneof(code, fc.integer()), { maxLength: 4 }), fc.constantFrom(true, false, null, {}, { a: 1 }, [[]]));
const key = fc.oneof(fc.constantFrom('base', 'amount', 'targets', 'date', '__proto__', 'constructor', 'toString', '0', '10', 'hasOwnProperty'), printable);
const body = fc.dictionary(key, value, { maxKeys: 6 });
const blank = fc.constantFrom('', ' ', '\n', '\t', '\r\n', '  ');

/** JSON text of an object, with blanks around every token as a client might send. */
const spaced = fc.tuple(body, fc.array(blank, { minLength: 64, maxLength: 64 })).map(([b, blanks]) => {
  let i = 0;
  return JSON.stringify(b).replace(/("(?:[^"\\]|\\.)*"|[{}[\],:])/g, (token) => `${token}${blanks[i++ % 64]}`);
});

test('the bench body and its variants are parsed flat, as JSON.parse does', () => {
  const targets = Array.from({ length: 150 }, (_, i) => ['USD', 'JPY', 'GBP', 'chf'][i % 4]);
  for (const text of [
    JSON.stringify({ base: 'EUR', amount: '1000.37', targets }),
    JSON.stringify({ targets: ['USD'], base: 'eur', amount: 12.5, date: '2024-01-02' }),
    ' { "base" : "EUR" , "targets" : [ ] } \n',
    '{}',
    '{"amount":-0}',
    '{"amount":1E+2,"x":0.5e-3}',
  ]) {
    assert.ok(agrees(Buffer.from(text)), text);
  }
});

test('anything but a flat ASCII object without escapes goes to the generic parser', () => {
  for (const text of [
    '',
    '"EUR"',
    '[{"base":"EUR"}]',
    '{"base":"EUR",}',
    '{"base":"EUR"',
    '{"base":"EUR"} x',
    '{"base":"E\\u0055R"}',
    '{"__proto__":{"x":1}}',
    '{"__proto__":"x"}',
    '{"constructor":"x"}',
    '{"base":"EUR","base":"USD"}',
    '{"amount":01}',
    '{"amount":1.}',
    '{"amount":.5}',
    '{"amount":+1}',
    '{"amount":1e}',
    '{"amount":true}',
    '{"amount":null}',
    '{"targets":["USD",5]}',
    '{"targets":[["USD"]]}',
    '{"base":"ÉUR"}',
    '\ufeff{"base":"EUR"}',
    '{"base":"EU\tR"}',
    "{'base':'EUR'}",
  ]) {
    assert.equal(parseFlatJson(Buffer.from(text)), undefined, text);
  }
});

test('the flat parser agrees with Fastify on generated bodies, well-formed or not', () => {
  let flat = 0;
  fc.assert(
    fc.property(spaced, (text) => {
      if (agrees(Buffer.from(text))) flat++;
    }),
    { numRuns: 5_000 },
  );
  assert.ok(flat > 1_000, `only ${flat} of 5,000 generated bodies took the flat path`);
  // Malformed: a well-formed body with one character cut, doubled or replaced, or cut short.
  const mutated = fc.tuple(spaced, fc.nat(), fc.constantFrom('cut', 'double', 'replace', 'truncate'), fc.constantFrom(...'{}[]",:\\ 0-.eE+aé\u0000'.split(''))).map(([text, n, how, c]) => {
    const i = n % Math.max(1, text.length);
    if (how === 'cut') return text.slice(0, i) + text.slice(i + 1);
    if (how === 'double') return text.slice(0, i) + text[i] + text.slice(i);
    if (how === 'replace') return text.slice(0, i) + c + text.slice(i + 1);
    return text.slice(0, i);
  });
  fc.assert(fc.property(mutated, (text) => void agrees(Buffer.from(text))), { numRuns: 10_000 });
  // Any bytes at all, UTF-8 or not.
  fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => void agrees(Buffer.from(bytes))), { numRuns: 5_000 });
  fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...'{}[]",: 0123456789-.eEabtrufnl\\'.split('')), maxLength: 30 }), (text) => void agrees(Buffer.from(text))), { numRuns: 10_000 });
});
