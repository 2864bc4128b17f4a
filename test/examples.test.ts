// The examples in examples/ run as a reader would run them, against a live Kurs server on the
// machine's real clock, and their output is checked, so the docs cannot rot. Twice: with the bundled
// seed alone, as a first start that has not reached the banks' feeds has it (its figures months old:
// a pair is 404 no_fresh_rate, and each example must say so in one line, never a traceback or a
// silent stop), and once the ECB's figures of yesterday are in (each example's whole output).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';
import { ecbYesterday } from './support/fresh-today.js';

const EXAMPLES = fileURLToPath(new URL('../examples/', import.meta.url));
const exec = promisify(execFile);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs an example to its end, whatever its exit status. */
const run = (file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> =>
  exec(file, args, { cwd: EXAMPLES, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
const EXAMPLE = {
  curl: (env: NodeJS.ProcessEnv) => run('sh', ['curl.sh'], env),
  client: (env: NodeJS.ProcessEnv) => run(process.execPath, ['--import', 'tsx', 'client.ts'], env),
  python: (env: NodeJS.ProcessEnv) => run('python3', ['python.py'], env),
};

/** Each example's whole output, on a server with fresh rates. */
const WHOLE = {
  curl({ code, stdout, stderr }: Run) {
    assert.equal(code, 0, stderr);
    const bodies = stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(bodies.length, 4, stdout);
    assert.equal((bodies[0]!.rates as Record<string, number>).EUR, 1);
    assert.equal(bodies[1]!.amount, 100);
    assert.deepEqual(Object.keys(bodies[2]!.rates as object), ['USD', 'GBP']);
    assert.deepEqual(bodies[2]!.missing, ['XYZ']);
    // latest, rate, convert: 3 points; usage is free.
    assert.equal(bodies[3]!.points, 997);
  },
  client({ code, stdout, stderr }: Run) {
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split('\n');
    assert.match(lines[0]!, /^49\.90 EUR = [\d.]+ USD$/);
    assert.match(lines[3]!, /^latest EUR→USD [\d.]+; unchanged on the second poll: true$/);
    assert.match(lines[4]!, /^999999999999\.99 EUR = \d{14,}\.\d+ JPY \(exact\)$/);
    assert.equal(lines[5], 'refused: 422 invalid_parameter: target_currency XYZ is not a currency Kurs quotes');
    // convert, latest (the 304 is free), rate; the refusal and usage cost nothing.
    assert.equal(lines[6], 'points left: 997');
  },
  python({ code, stdout, stderr }: Run) {
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split('\n');
    assert.match(lines[0]!, /^100 EUR = [\d.]+ USD at [\d.]+ \(as of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\)$/);
    assert.match(lines[1]!, /^1250\.50 EUR = [\d.]+ GBP$/);
    assert.equal(lines[3], 'missing: XYZ');
    assert.match(lines[4]!, /^refused: 422 invalid_parameter: amount /);
    assert.equal(lines[5], 'points left: 998');
  },
};

describe('examples/ against a live server on the real clock', () => {
  let t: TestApp;
  let url: string;
  /** Each example gets a key of its own, so its balance shows only its own calls. */
  const env = async (): Promise<NodeJS.ProcessEnv> => ({ ...process.env, KURS_URL: url, KURS_API_KEY: (await t.key({ plan: 'business', points: 1000 })).key });
  /** What the server itself answers, asked with a key of the test's own. */
  const ask = async (path: string, body?: object) => {
    const { key } = await t.key({ plan: 'business', points: 1000 });
    const res = await fetch(url + path, { method: body ? 'POST' : 'GET', headers: { authorization: key, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, body: (await res.json()) as { error?: string; message: string; rates?: object; missing?: string[] } };
  };
  before(async () => {
    t = await testApp({ realClock: true });
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  describe('with the bundled seed alone (no feed reached yet)', () => {
    let pair: Awaited<ReturnType<typeof ask>>;
    before(async () => {
      pair = await ask('/v1/rate/EUR/USD?amount=100');
    });

    test('the seed is months old by the real clock: the pair the examples ask is 404 no_fresh_rate', () => {
      // Once a seed is fresh on this machine's clock, the other tests below check the whole output.
      assert.ok(pair.status === 404 || pair.status === 200, JSON.stringify(pair));
      if (pair.status === 404) assert.equal(pair.body.error, 'no_fresh_rate');
    });

    test('curl.sh: the latest rates, then the server\'s one line on the pair, exit 1 (no silent curl error 22)', async () => {
      const out = await EXAMPLE.curl(await env());
      if (pair.status === 200) return WHOLE.curl(out);
      assert.equal(out.code, 1);
      assert.equal(out.stderr, `404 no_fresh_rate: ${pair.body.message}\n`);
      const bodies = out.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { rates: Record<string, number> });
      assert.equal(bodies.length, 1, out.stdout);
      assert.equal(bodies[0]!.rates.EUR, 1);
      assert.ok(out.stdout.trimEnd().endsWith('# 100 EUR in USD'), out.stdout.slice(-200));
    });

    test('python.py: the server\'s one line on stderr, exit 1, no traceback', async () => {
      const out = await EXAMPLE.python(await env());
      if (pair.status === 200) return WHOLE.python(out);
      assert.deepEqual(out, { code: 1, stdout: '', stderr: `404 no_fresh_rate: ${pair.body.message}\n` });
    });

    test('client.ts: says why nothing was converted in one line, exit 1, nothing thrown', async () => {
      const convert = await ask('/v1/rates/convert', { base: 'EUR', amount: '49.90', targets: ['USD', 'GBP', 'JPY'] });
      const out = await EXAMPLE.client(await env());
      if (pair.status === 200) return WHOLE.client(out);
      // The server's own words: a 404 explains itself; a 200 that converted nothing lists `missing`,
      // with the reason in its message where the server gives one.
      const reason = convert.body.message === 'success' ? 'no target converted' : convert.body.message;
      const line = convert.status === 200 ? `${reason} (missing: ${convert.body.missing!.join(', ')})` : `${convert.status} ${convert.body.error}: ${convert.body.message}`;
      if (convert.status === 200) assert.deepEqual(convert.body.rates, {});
      assert.deepEqual(out, { code: 1, stdout: '', stderr: `${line}\n` });
      assert.match(line, /USD, GBP, JPY|no_fresh_rate/);
    });
  });

  describe('once the ECB\'s figures of yesterday are in', () => {
    before(async () => {
      await ecbYesterday(t.store);
      await t.market.rebuild(new Date());
    });

    test('curl.sh: latest, a pair, a bulk conversion and the balance', async () => WHOLE.curl(await EXAMPLE.curl(await env())));
    test('client.ts: converts, polls for free the second time, keeps exact digits, reports a refusal', async () => WHOLE.client(await EXAMPLE.client(await env())));
    test('python.py: standard library only, Decimal numbers, the error envelope', async () => WHOLE.python(await EXAMPLE.python(await env())));
  });
});
