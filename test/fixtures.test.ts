// The recorded payloads are part of the repository: every adapter has its folder with a SOURCE.md, and
// a folder that is not there fails loudly instead of skipping.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { SOURCES } from '../src/sources/index.js';
import { FIXTURES_ROOT, fixtureDir } from './support/fixtures.js';

test('every adapter has its recorded payloads, with a SOURCE.md, under test/fixtures/sources/', () => {
  for (const s of SOURCES) {
    const dir = fixtureDir(s.code);
    assert.ok(existsSync(new URL('SOURCE.md', dir)), `${s.code}: no SOURCE.md`);
    assert.ok(readdirSync(dir).some((f) => f !== 'SOURCE.md'), `${s.code}: no payload`);
  }
  assert.deepEqual(readdirSync(FIXTURES_ROOT).sort(), SOURCES.map((s) => s.code).sort(), 'a folder without an adapter');
});

test('a missing payload folder fails with its path', () => {
  assert.throws(() => fixtureDir('NO-SUCH-SOURCE'), /recorded payloads not found at .*test\/fixtures\/sources\/NO-SUCH-SOURCE\//);
});
