import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BatchedLines, LOG_BATCH_LINES, LOG_BUFFER_BYTES, LOG_FLUSH_MS, RequestSampler, requestLine, SLOW_REQUEST_MS } from './request-log.js';

const collector = () => {
  const chunks: string[] = [];
  return { chunks, out: { write: (c: Buffer | string) => chunks.push(String(c)) } };
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

test('lines in any script, and lines too long for the buffer, come out whole and in order', () => {
  const { chunks, out } = collector();
  const log = new BatchedLines(out);
  const lines = ['Zürich 5 µs\n', '東京 — ₹ 🙂\n', `${'x'.repeat(LOG_BUFFER_BYTES / 2)}\n`, `${'€'.repeat(LOG_BUFFER_BYTES)}\n`, 'after\n'];
  for (const l of lines) log.write(l);
  log.flush();
  assert.equal(chunks.join(''), lines.join(''));
  // The second half-buffer line could not fit after the first ones, and the huge one was written alone.
  assert.deepEqual(chunks.map((c) => c.length), [lines[0]!.length + lines[1]!.length, lines[2]!.length, lines[3]!.length, lines[4]!.length]);
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

test('the sampler gives every error and slow request a line, and 1 in n of the rest one standing for n', () => {
  const s = new RequestSampler(3);
  const weights = [200, 200, 404, 200, 304, 500, 200, 200].map((status) => s.weight(status, 1));
  // The 3rd and 6th successful answers; 404 and 500 always, without moving the count.
  assert.deepEqual(weights, [0, 0, 1, 3, 0, 1, 0, 3]);
  assert.equal(s.weight(200, SLOW_REQUEST_MS), 1, 'a slow request always');
  assert.deepEqual([1, 2, 3].map(() => new RequestSampler(1).weight(200, 1)), [1, 1, 1], 'at 1, every request');
});

test('a sampled line says how many requests it stands for; a line of its own does not', () => {
  const base = requestLine('id', 'GET', '/v1/USD/latest', 200, 0.4, 1_700_000_000_000);
  assert.equal(JSON.parse(base).sample, undefined);
  const sampled = requestLine('id', 'GET', '/v1/USD/latest', 200, 0.4, 1_700_000_000_000, 10);
  assert.deepEqual(JSON.parse(sampled), { ...JSON.parse(base), sample: 10 });
  assert.ok(sampled.endsWith(',"ms":0.4,"sample":10,"msg":"request"}\n'), 'after ms, as pino writes the Fastify path\'s field');
});
