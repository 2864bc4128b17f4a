// What a start loads for fetching: the npm undici only when a source will need its own TLS pool
// (src/sources/tls.ts), loaded before listening by loadFetch when polling is on. Each case runs in a
// fresh process, since a module once loaded stays in the test runner's cache.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

/** Runs `body` (after importing the scheduler and the sources) in a fresh process and returns
 *  whether the npm undici was loaded by then. */
function undiciLoadedAfter(body: string): boolean {
  const script = `
    import { createRequire } from 'node:module';
    import { loadFetch } from './src/ingest/scheduler.ts';
    import { SOURCES } from './src/sources/index.ts';
    ${body}
    const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/undici/'));
    console.log(JSON.stringify({ loaded, withIntermediates: SOURCES.filter((s) => (s.tlsIntermediates ?? []).length > 0).length }));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('../..', import.meta.url), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { loaded: boolean; withIntermediates: number };
  assert.ok(out.withIntermediates > 0, 'some bundled source names TLS intermediates');
  return out.loaded;
}

test('importing the sources and the scheduler does not load the npm undici', () => {
  assert.equal(undiciLoadedAfter(''), false);
});

test('loadFetch loads it when a source names TLS intermediates, and not otherwise', () => {
  assert.equal(undiciLoadedAfter('loadFetch([{ code: "X" }, { tlsIntermediates: [] }]);'), false);
  assert.equal(undiciLoadedAfter('loadFetch(SOURCES);'), true);
});
