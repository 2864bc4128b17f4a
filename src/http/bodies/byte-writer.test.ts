import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Fixed, multiply } from '../../money/fixed.js';
import { asciiBytes, ByteWriter } from './byte-writer.js';

test('a ByteWriter grows past its first slab and hands out exactly what was written, once', () => {
  const w = new ByteWriter(64);
  w.ascii('first');
  const first = w.take();
  const expected: string[] = [];
  for (let i = 0; i < 2_000; i++) {
    const piece = `"P${i}":`;
    w.bytes(asciiBytes(piece));
    w.product(Fixed.parse(`${i}.5`), Fixed.parse('123456789012345.678'), 6); // off the fast path
    w.ascii(',');
    expected.push(piece, multiply(Fixed.parse(`${i}.5`), Fixed.parse('123456789012345.678'), 6), ',');
  }
  assert.equal(w.take().toString('latin1'), expected.join(''));
  w.ascii('again');
  assert.equal(w.take().toString('latin1'), 'again', 'starts over after take');
  for (let i = 0; i < 100; i++) w.ascii('overwrite?');
  assert.equal(first.toString('latin1'), 'first', 'an answer taken is never written again');
});
