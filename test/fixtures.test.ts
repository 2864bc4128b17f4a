import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixtureDir } from './support/fixtures.js';

const withCi = <T>(value: string | undefined, run: () => T): T => {
  const before = process.env.CI;
  if (value === undefined) delete process.env.CI;
  else process.env.CI = value;
  try {
    return run();
  } finally {
    if (before === undefined) delete process.env.CI;
    else process.env.CI = before;
  }
};

test('a missing payload folder skips with its path outside CI', () => {
  const { dir, skip } = withCi(undefined, () => fixtureDir('NO-SUCH-SOURCE'));
  assert.match(dir.pathname, /\/shared\/fixtures\/sources\/NO-SUCH-SOURCE\/$/);
  assert.match(String(skip), /^shared fixtures not found at .*NO-SUCH-SOURCE/);
});

test('a missing payload folder fails under CI instead of skipping', () => {
  assert.throws(() => withCi('true', () => fixtureDir('NO-SUCH-SOURCE')), /CI is set, so the payload tests must run/);
});
