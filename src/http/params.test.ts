import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCurrencyShape } from './params.js';

test('isCurrencyShape accepts exactly what /^[A-Za-z]{3}$/ accepts', () => {
  const shape = /^[A-Za-z]{3}$/;
  // Every character up to 0x17f in each position (where ASCII case tricks could go wrong), then a sample of the rest.
  for (let c = 0; c < 0x10000; c += c < 0x180 ? 1 : 97) {
    const ch = String.fromCharCode(c);
    for (const s of [`${ch}AB`, `A${ch}B`, `AB${ch}`, ch, `${ch}${ch}`, `ABC${ch}`]) assert.equal(isCurrencyShape(s), shape.test(s), JSON.stringify(s));
  }
  for (const s of ['usd', 'Usd', 'USD', '', 'US', 'USDX', 'U$D', 'US1', '@SD', '[SD', '`SD', '{SD']) assert.equal(isCurrencyShape(s), shape.test(s), s);
});
