import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { keepTickShape } from './tick-shape.js';

test('the object kept is one of Node\'s tick objects', async () => {
  const tick = await keepTickShape();
  // What process.nextTick builds (node:internal/process/task_queues): two symbol keys, then the callback.
  assert.deepEqual(Object.getOwnPropertySymbols(tick).map(String), ['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)']);
  assert.deepEqual(Object.keys(tick), ['callback', 'args']);
});

// The point of keeping it, in a process of its own with V8's natives: ticks made after full
// collections at idle moments still have the kept tick's hidden class.
test('ticks made after full collections keep the hidden class of the kept one', () => {
  const module = fileURLToPath(new URL('./tick-shape.ts', import.meta.url));
  const script = `
    import { executionAsyncResource } from 'node:async_hooks';
    import { keepTickShape } from ${JSON.stringify(module)};
    const kept = await keepTickShape();
    for (let i = 0; i < 4; i++) { await new Promise((r) => setTimeout(r, 5)); globalThis.gc(); }
    process.nextTick(() => console.log(JSON.stringify({ same: %HaveSameMap(kept, executionAsyncResource()) })));`;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { same: true });
});
