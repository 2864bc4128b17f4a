import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inTurns, ranWhole, Slices, type Steps } from './turns.js';

function* counting(seen: string[], waiting: { ran: boolean }): Steps<number> {
  seen.push(`start ${waiting.ran}`);
  yield;
  seen.push(`after a pause ${waiting.ran}`);
  yield;
  return 42;
}

test('steps run whole give their result without letting anything in', () => {
  const waiting = { ran: false };
  setImmediate(() => (waiting.ran = true));
  const seen: string[] = [];
  assert.equal(ranWhole(counting(seen, waiting)), 42);
  assert.deepEqual(seen, ['start false', 'after a pause false']);
});

test('steps run in turns let waiting work run at a pause once the slice is due, and give the same result', async () => {
  const waiting = { ran: false };
  setImmediate(() => (waiting.ran = true));
  const seen: string[] = [];
  // A slice of 0 ms is always due: every pause turns the loop.
  assert.equal(await inTurns(counting(seen, waiting), new Slices(0)), 42);
  assert.deepEqual(seen, ['start false', 'after a pause true']);
});
