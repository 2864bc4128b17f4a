import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, businessDaysBehind, isWeekend, utcDay } from './days.js';
import { httpDate, utcStamp } from './stamps.js';

test('utcDay follows the clock across midnights, backwards too, and refuses an invalid date', () => {
  const at = (iso: string) => utcDay(new Date(iso));
  assert.equal(at('2026-11-23T23:59:59.999Z'), '2026-11-23');
  assert.equal(at('2026-11-24T00:00:00.000Z'), '2026-11-24');
  assert.equal(at('2026-11-23T12:00:00.000Z'), '2026-11-23');
  assert.equal(at('1999-01-04T00:00:00.000Z'), '1999-01-04');
  assert.equal(at('2026-11-23T00:00:00.000Z'), '2026-11-23');
  // Every hour over two days against toISOString, the definition it replaces.
  for (let h = 0; h < 48; h++) {
    const d = new Date(Date.UTC(2026, 2, 28, h, 30));
    assert.equal(utcDay(d), d.toISOString().slice(0, 10));
  }
  assert.throws(() => utcDay(new Date(Number.NaN)), RangeError);
});

test('addDays crosses months and years both ways; isWeekend knows Saturday and Sunday only', () => {
  assert.equal(addDays('2026-02-28', 1), '2026-03-01');
  assert.equal(addDays('2024-02-28', 1), '2024-02-29');
  assert.equal(addDays('2026-01-01', -1), '2025-12-31');
  const weekends = ['2026-04-10', '2026-04-11', '2026-04-12', '2026-04-13'].map((d) => isWeekend(Date.parse(`${d}T12:00:00Z`)));
  assert.deepEqual(weekends, [false, true, true, false]);
  assert.equal(businessDaysBehind('2026-04-10', '2026-04-13'), 1);
});

test('httpDate writes a D7 stamp as an HTTP date, the same twice running and after another', () => {
  assert.equal(httpDate('2026-04-13 15:00:00'), 'Mon, 13 Apr 2026 15:00:00 GMT');
  assert.equal(httpDate('2026-04-13 15:00:00'), 'Mon, 13 Apr 2026 15:00:00 GMT');
  assert.equal(httpDate('2026-04-14 08:30:05'), 'Tue, 14 Apr 2026 08:30:05 GMT');
  assert.equal(utcStamp(new Date('2026-04-14T08:30:05.999Z')), '2026-04-14 08:30:05');
});
