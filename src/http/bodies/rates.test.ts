import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { BlendedRate } from '../../blend/blend.js';
import { Decimal } from '../../money/decimal.js';
import { Num, stringify } from '../../money/json.js';
import { amountFrom } from '../../money/fixed.js';
import { keptConversion, KEPT_CONVERSIONS, latestWithAmount, pairTag, rateBody } from './rates.js';
import { conversion } from './conversion.js';
import { RatesTable } from '../../rates/table.js';

const rate = (currency: string, perUsd: string, freshUntil = '2026-11-30', bankUpdate = '2026-11-20 15:00:00'): [string, BlendedRate] => [
  currency,
  { currency, perUsd: new Decimal(perUsd), bankUpdate, freshUntil, contributions: [] },
];
const table = () =>
  new RatesTable(new Map([rate('USD', '1'), rate('EUR', '0.92341'), rate('JPY', '151.234', '2026-11-30', '2026-11-21 06:00:00'), rate('GBP', '0.7812'), rate('TRY', '34.12', '2026-11-10')]));
const quotes = (c: string) => c !== 'GBP'; // as if GBP were not a currency Kurs quotes
const DAY = '2026-11-23';

/** The answer built the plain way, through stringify and Num: the reference the joined pieces must equal. */
function reference(rates: RatesTable, base: string, amountText: string, targets: string[]): string {
  const out: Record<string, { rate: Num; converted: Num; last_update: string }> = {};
  const missing: string[] = [];
  for (const raw of targets) {
    const t = raw.toUpperCase();
    if (out[t] || missing.includes(t)) continue;
    const pair = quotes(t) && rates.isFresh(base, DAY) && rates.isFresh(t, DAY) ? rates.pair(base, t) : undefined;
    if (!pair) missing.push(t);
    else out[t] = { rate: new Num(pair.text), converted: new Num(new Decimal(amountText).times(pair.text).toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toString()), last_update: pair.lastUpdate };
  }
  return stringify({ code: 200, message: 'success', base, amount: new Num(amountText), rates: out, missing });
}

test('conversion equals the stringify reference: order, repeats, case, unknown, stale and unquoted targets', () => {
  const rates = table();
  const targets = ['jpy', 'USD', 'XYZ', 'usd', 'TRY', 'GBP', 'xyz', 'EUR', 'JPY'];
  for (const [base, amountText] of [['EUR', '1234.56'], ['EUR', '0.000001'], ['EUR', '999999999999999.5'], ['JPY', '7']]) {
    const got = conversion(rates, base!, amountFrom(amountText!), targets, DAY, quotes);
    assert.equal(got.body.toString('latin1'), reference(rates, base!, amountText!, targets), amountText);
    const stamps = Object.values(JSON.parse(got.body.toString('latin1')).rates as Record<string, { last_update: string }>).map((r) => r.last_update);
    assert.equal(got.newest, stamps.sort().at(-1));
  }
  // Base no longer fresh: everything is missing, once each, and nothing rests on a stamp.
  const stale = conversion(rates, 'TRY', undefined, ['USD', 'usd', 'EUR'], DAY, quotes);
  assert.equal(stale.body.toString('latin1'), reference(rates, 'TRY', '1', ['USD', 'usd', 'EUR']));
  assert.equal(stale.newest, undefined);
});

test('conversion equals the reference on generated targets and amounts', () => {
  const rates = table();
  const code = fc.constantFrom('USD', 'usd', 'Eur', 'JPY', 'jPy', 'GBP', 'TRY', 'XYZ', 'abc', 'CHF');
  const amount = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 18n }), fc.integer({ min: 0, max: 12 })).map(([d, s]) => {
    const t = d.toString().padStart(s + 1, '0');
    return s === 0 ? t : `${t.slice(0, -s)}.${t.slice(-s)}`;
  });
  fc.assert(
    fc.property(fc.constantFrom('EUR', 'USD', 'JPY', 'TRY'), amount, fc.array(code, { minLength: 1, maxLength: 40 }), (base, amountText, targets) => {
      const got = conversion(rates, base, amountFrom(amountText), targets, DAY, quotes);
      assert.equal(got.body.toString('latin1'), reference(rates, base, amountText, targets));
    }),
    { numRuns: 2_000 },
  );
});

test('kept conversions: the second asking keeps the answer, later ones reuse it, day and table are part of it', () => {
  const rates = table();
  const ask = (targets: string[], day = DAY, r = rates) => keptConversion(r, 'EUR', amountFrom('10'), targets, day, quotes);
  const first = ask(['USD', 'JPY']);
  const second = ask(['USD', 'JPY']);
  assert.notEqual(second, first, 'not kept on first asking');
  assert.equal(ask(['USD', 'JPY']), second, 'kept from the second');
  assert.deepEqual(second, first);
  // Freshness depends on the day: the same question on another day is answered anew, and differently.
  const later = (ask(['USD', 'TRY'], '2026-11-05'), ask(['USD', 'TRY'], '2026-11-05'));
  assert.equal(JSON.parse(later.body.toString()).missing.length, 0);
  assert.deepEqual(JSON.parse(ask(['USD', 'TRY']).body.toString()).missing, ['TRY']);
  // A new table (a new blend) starts with nothing kept.
  const other = table();
  assert.notEqual(ask(['USD', 'JPY'], DAY, other), second);
});

test('kept conversions: target lists of one digest never share an answer', () => {
  const rates = table();
  const ask = (targets: string[]) => JSON.parse(keptConversion(rates, 'EUR', amountFrom('10'), targets, DAY, quotes).body.toString()).missing;
  // "Aa" and "BB" hash alike under ×31 (as Java's String.hashCode): so do these two lists.
  assert.deepEqual([ask(['JAa']), ask(['JAa'])], [['JAA'], ['JAA']]);
  assert.deepEqual(ask(['JBB']), ['JBB']);
  assert.deepEqual(ask(['JBB']), ['JBB']);
  assert.deepEqual(ask(['JAa']), ['JAA']);
});

test('kept conversions are bounded, least recently used out first', () => {
  const rates = table();
  const ask = (n: number) => keptConversion(rates, 'USD', amountFrom(String(n)), ['EUR'], DAY, quotes);
  const hot = (ask(1), ask(1));
  for (let n = 2; n < KEPT_CONVERSIONS + 50; n++) {
    ask(n);
    ask(n);
    assert.equal(ask(1), hot, `answer for 1 dropped after ${n}`); // used again, so never the oldest
  }
  const answers = (rates.derived('conversions', () => undefined) as unknown as { answers: Map<string, unknown> }).answers;
  assert.equal(answers.size, KEPT_CONVERSIONS);
});

test('rate and latest answers with an amount carry the amount in their tag', () => {
  const rates = table();
  const pair = rates.pair('EUR', 'USD')!;
  const plain = rateBody('EUR', 'USD', pair, undefined);
  const withAmount = rateBody('EUR', 'USD', pair, amountFrom('2.5'));
  assert.equal(JSON.parse(plain.body).converted, JSON.parse(plain.body).rate);
  assert.equal(withAmount.etag, `"${pairTag('EUR', 'USD', pair)}.2.5"`);
  assert.notEqual(plain.etag, withAmount.etag);
  const latest = latestWithAmount(rates, 'EUR', amountFrom('3'), rates.get('EUR')!.freshUntil)!;
  assert.equal(JSON.parse(latest.body).rates.JPY.converted, Number(new Decimal(3).times(rates.pair('EUR', 'JPY')!.text).toDecimalPlaces(6).toString()));
  assert.match(latest.etag, /^"[A-Za-z0-9_-]{27}\.3"$/);
});
