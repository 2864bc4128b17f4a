import assert from 'node:assert/strict';
import { test } from 'node:test';
import { monthName, monthNumber } from './months.js';

test('month names in full or three letters, any case, accents ignored; 0 for anything else', () => {
  assert.equal(monthNumber('April'), 4);
  assert.equal(monthNumber('apr'), 4);
  assert.equal(monthNumber('SEPTEMBER'), 9);
  assert.equal(monthNumber('DIC', 'es'), 12);
  assert.equal(monthNumber('Septiembre', 'es'), 9);
  assert.equal(monthNumber('Setiembre', 'es'), 9);
  assert.equal(monthNumber('Set', 'es'), 9);
  assert.equal(monthNumber('Set'), 0);
  assert.equal(monthNumber('FÉVRIER', 'fr'), 2);
  assert.equal(monthNumber('FEVRIER', 'fr'), 2);
  // French abbreviations are ambiguous (juin, juillet): full names only.
  assert.equal(monthNumber('jui', 'fr'), 0);
  assert.equal(monthNumber('Ap'), 0);
  assert.equal(monthNumber('Aprill'), 0);
  assert.equal(monthNumber(''), 0);
});

test('month names written back as feeds want them', () => {
  assert.equal(monthName(1), 'Jan');
  assert.equal(monthName(12, 'es'), 'Dic');
  assert.equal(monthName(3, 'en', 'full'), 'March');
  assert.throws(() => monthName(13), RangeError);
});
