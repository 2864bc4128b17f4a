import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { Cron } from 'croner';
import { BANK_ALIASES, SOURCES, sourceByCode } from './index.js';

test('every adapter file is registered, in code order, once', () => {
  const files = readdirSync(new URL('./banks/', import.meta.url))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.slice(0, -3));
  assert.deepEqual(SOURCES.map((s) => s.code.toLowerCase()).sort(), files.sort());
  const codes = SOURCES.map((s) => s.code);
  assert.deepEqual(codes, [...codes].sort(), 'not in code order');
  assert.equal(new Set(codes).size, codes.length, 'a code repeats');
});

test('every source has valid metadata and a schedule that parses (UTC)', () => {
  for (const s of SOURCES) {
    assert.match(s.code, /^[A-Z0-9]{4}$/);
    assert.match(s.countryCode, /^[A-Z]{2}$/, s.code);
    assert.match(s.currency, /^[A-Z]{3}$/, s.code);
    assert.match(s.publishedAtUtc, /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, s.code);
    assert.match(s.feedUrl, /^https?:\/\//, s.code);
    assert.match(s.baseUrl, /^https?:\/\//, s.code);
    assert.match(s.termsUrl, /^https?:\/\//, s.code);
    const next = new Cron(s.schedule, { timezone: 'UTC', paused: true }).nextRun(new Date('2026-04-13T00:00:00Z'));
    assert.ok(next instanceof Date, `${s.code}: schedule ${s.schedule} never runs`);
    for (const table of Object.values(s.tableCadence ?? {})) assert.ok(['daily', 'weekly', 'monthly'].includes(table));
  }
});

test('every source builds requests on its base URL that it accepts', () => {
  for (const s of SOURCES) {
    const requests = s.requests({ from: '2026-03-02', to: '2026-03-06' }, { base: 'http://127.0.0.1:9', key: 'k' });
    assert.ok(requests.length > 0, s.code);
    for (const r of requests) {
      assert.ok(r.url.startsWith('http://127.0.0.1:9'), `${s.code}: ${r.url} ignores the base URL`);
      // A page to follow goes to the source's follow step, not to parse.
      if (r.follow) assert.equal(typeof s.follow, 'function', `${s.code}: ${r.url} is to be followed, but the source has no follow step`);
      else assert.ok(s.accepts(r.name ?? r.url), `${s.code} does not accept its own request ${r.name ?? r.url}`);
    }
  }
});

test('BankFxApi aliases resolve only to registered codes (D9)', () => {
  for (const [alias, code] of Object.entries(BANK_ALIASES)) {
    if (SOURCES.some((s) => s.code === code)) assert.equal(sourceByCode(alias)?.code, code);
    else assert.equal(sourceByCode(alias), undefined);
  }
  assert.equal(sourceByCode('ECBF')?.code, 'ECBF');
  assert.equal(sourceByCode('NOPE'), undefined);
});
