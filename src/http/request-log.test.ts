import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BatchedLines, LOG_BATCH_LINES, LOG_FLUSH_MS } from './request-log.js';

const collector = () => {
  const chunks: string[] = [];
  return { chunks, out: { write: (c: string) => chunks.push(c) } };
};

test('request log lines are written together once a batch is full', () => {
  const { chunks, out } = collector();
  const log = new BatchedLines(out);
  for (let i = 0; i < LOG_BATCH_LINES - 1; i++) log.write(`line ${i}\n`);
  assert.equal(chunks.length, 0, 'nothing is written before the batch is full');
  log.write('last\n');
  assert.equal(chunks.length, 1);
  assert.equal(chunks[0]!.split('\n').length, LOG_BATCH_LINES + 1);
  assert.ok(chunks[0]!.startsWith('line 0\nline 1\n') && chunks[0]!.endsWith('last\n'));
});

test('lines of a quiet server appear within the flush interval', async () => {
  const { chunks, out } = collector();
  const log = new BatchedLines(out);
  log.write('one\n');
  log.write('two\n');
  await new Promise((r) => setTimeout(r, LOG_FLUSH_MS + 200));
  assert.deepEqual(chunks, ['one\ntwo\n']);
});

// A real process: what is waiting when it exits, normally or on an uncaught error, reaches stdout.
const MODULE = fileURLToPath(new URL('./request-log.ts', import.meta.url));
const child = (ending: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { BatchedLines } from ${JSON.stringify(MODULE)}; const log = new BatchedLines(); log.write('kept\\n'); ${ending}`], { encoding: 'utf8' });

test('lines still waiting are written when the process exits', () => {
  const r = child('process.exit(0);');
  assert.equal(r.status, 0);
  assert.equal(r.stdout, 'kept\n');
});

test('lines still waiting are written when the process dies of an uncaught error', () => {
  const r = child("setTimeout(() => { throw new Error('boom'); }, 10);");
  assert.equal(r.status, 1);
  assert.equal(r.stdout, 'kept\n');
  assert.match(r.stderr, /boom/);
});
