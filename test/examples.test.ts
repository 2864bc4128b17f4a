// The examples in examples/ run as a reader would run them, against a live Kurs server, and their
// output is checked, so the docs cannot rot.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

const EXAMPLES = fileURLToPath(new URL('../examples/', import.meta.url));
const run = promisify(execFile);

describe('examples/ against a live server', () => {
  let t: TestApp;
  let url: string;
  /** Each example gets a key of its own, so its balance shows only its own calls. */
  const env = async (): Promise<NodeJS.ProcessEnv> => ({ ...process.env, KURS_URL: url, KURS_API_KEY: (await t.key({ plan: 'business', points: 1000 })).key });
  before(async () => {
    t = await testApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  test('curl.sh: latest, a pair, a bulk conversion and the balance', async () => {
    const { stdout } = await run('sh', ['curl.sh'], { cwd: EXAMPLES, env: await env() });
    const bodies = stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(bodies.length, 4, stdout);
    assert.equal((bodies[0]!.rates as Record<string, number>).EUR, 1);
    assert.equal(bodies[1]!.amount, 100);
    assert.deepEqual(bodies[2]!.missing, ['XYZ']);
    assert.equal(bodies[3]!.points, 997);
  });

  test('client.ts: converts, polls for free the second time, keeps exact digits, reports a refusal', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'client.ts'], { cwd: EXAMPLES, env: await env() });
    const lines = stdout.trim().split('\n');
    assert.match(lines[0]!, /^49\.90 EUR = [\d.]+ USD$/);
    assert.match(lines[3]!, /^latest EUR→USD [\d.]+; unchanged on the second poll: true$/);
    assert.match(lines[4]!, /^999999999999\.99 EUR = \d{14,}\.\d+ JPY \(exact\)$/);
    assert.equal(lines[5], 'refused: 422 invalid_parameter: target_currency XYZ is not a currency Kurs quotes');
    // convert, latest (the 304 is free), rate; the refusal and usage cost nothing.
    assert.equal(lines[6], 'points left: 997');
  });

  test('python.py: standard library only, Decimal numbers, the error envelope', async () => {
    const { stdout } = await run('python3', ['python.py'], { cwd: EXAMPLES, env: await env() });
    const lines = stdout.trim().split('\n');
    assert.match(lines[0]!, /^100 EUR = [\d.]+ USD at [\d.]+ \(as of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\)$/);
    assert.match(lines[1]!, /^1250\.50 EUR = [\d.]+ GBP$/);
    assert.equal(lines[3], 'missing: XYZ');
    assert.match(lines[4]!, /^refused: 422 invalid_parameter: amount /);
    assert.equal(lines[5], 'points left: 998');
  });
});
