// Every `curl` line of the README and of docs/api.md's history section runs as a reader would run
// it, against a first-start server (the bundled seed and its history, a first start's professional
// key with 1,000 points) on the machine's real clock, twice. With the seed alone, as a first start
// that has not reached the banks' feeds has it: every line answers 2xx with a body that holds
// something, or (current rates of a pair, the seed being months old) one line saying why; history
// always answers. Once the ECB's figures of yesterday are in: every line answers 2xx with content,
// and the lines cost what the docs say they cost.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { Market } from '../src/rates/market.js';
import { SOURCES } from '../src/sources/index.js';
import { utcDay } from '../src/time/days.js';
import { testApp, type TestApp } from './helpers.js';
import { ecbYesterday } from './support/fresh-today.js';

const exec = promisify(execFile);
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/** The lines of `text` from the heading `from` up to the next heading of its level. */
function section(text: string, from: string): string {
  const start = text.indexOf(`\n${from}\n`);
  assert.ok(start >= 0, `no section ${from}`);
  const level = from.split(' ')[0]!;
  const next = text.indexOf(`\n${level} `, start + from.length + 2);
  return text.slice(start, next < 0 ? undefined : next);
}

/** Each `curl` command of the shell blocks of `text`. */
function curlLines(text: string): string[] {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((b) => b.split('\n')).map((l) => l.trim()).filter((l) => l.startsWith('curl '));
}

/** What the text says its examples cost together. */
function statedCost(text: string, pattern: RegExp): number {
  const m = pattern.exec(text);
  assert.ok(m, `no stated cost ${pattern}`);
  return Number(m[1]);
}

const README = read('README.md');
const HISTORY = section(read('docs/api.md'), '## History (D14–D16)');
const EXAMPLES: { where: string; lines: string[]; cost: number }[] = [
  { where: 'README.md', lines: curlLines(README), cost: statedCost(README, /Together they cost (\d+) of the first start's 1,000 points/) },
  { where: 'docs/api.md, History', lines: curlLines(HISTORY), cost: statedCost(HISTORY, /These eight cost (\d+) points/) },
];

interface Answer {
  line: string;
  status: number;
  body: string;
}

describe('the README\'s curl examples against a first-start server on the real clock', () => {
  let t: TestApp;
  let port: string;
  before(async () => {
    t = await testApp({ seedHistory: true, realClock: true });
    port = new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port;
  });
  after(() => t.close());

  /** Runs a line as written, but on this server's port, with the status after the body. */
  async function curl(line: string, key: string): Promise<Answer> {
    assert.match(line, /http:\/\/127\.0\.0\.1:8080\//, `${line}: the documented address`);
    const command = `${line.replace('curl ', "curl -sS -w '\\n%{http_code}' ").replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)}`;
    const { stdout } = await exec('sh', ['-c', command], { env: { ...process.env, KEY: key }, maxBuffer: 256 * 1024 * 1024 });
    const cut = stdout.lastIndexOf('\n');
    return { line, status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
  }

  /** 2xx with a body that holds something. */
  function holdsSomething({ line, status, body }: Answer): void {
    assert.ok(status >= 200 && status < 300, `${line}\n→ ${status} ${body.slice(0, 300)}`);
    assert.ok(body.trim().length > 0, `${line}: an empty body`);
    const json = body.startsWith('{') && !body.includes('}\n{') ? (JSON.parse(body) as { rates?: object }) : undefined;
    if (json?.rates) assert.ok(Object.keys(json.rates).length > 0, `${line}: rates {}`);
    if (body.startsWith('date,')) assert.ok(body.trim().split('\n').length > 1, `${line}: a CSV header alone`);
  }

  const key = async () => (await t.key({ plan: 'professional', points: 1000 })).key;
  const pointsLeft = async (k: string) => ((await (await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: k } })).json()) as { points: number }).points;

  test('the README and docs/api.md have curl examples to run', () => {
    assert.ok(EXAMPLES[0]!.lines.length >= 10, EXAMPLES[0]!.lines.join('\n'));
    assert.equal(EXAMPLES[1]!.lines.length, 8, EXAMPLES[1]!.lines.join('\n'));
  });

  describe('with the bundled seed alone (no feed reached yet)', () => {
    test('every line answers, or says in one line why it cannot; a dated one always answers', async () => {
      const k = await key();
      const fresh = (await fetch(`http://127.0.0.1:${port}/v1/rate/EUR/USD`, { headers: { authorization: k } })).status === 200;
      const offline: string[] = [];
      for (const { lines } of EXAMPLES) {
        for (const line of lines) {
          const answer = await curl(line, k);
          if (fresh || /\d{4}-\d{2}-\d{2}/.test(line) || (answer.status >= 200 && answer.status < 300 && !/"rates":\{\}/.test(answer.body))) {
            holdsSomething(answer);
            continue;
          }
          // Current rates of a pair, months old by the real clock: one line in the envelope, saying
          // why — a 404 no_fresh_rate, or a bulk conversion with every target in `missing`.
          assert.doesNotMatch(answer.body, /\n/, `${line}: one line`);
          const body = JSON.parse(answer.body) as { error?: string; message: string; rates?: object; missing?: string[] };
          if (answer.status === 404) assert.equal(body.error, 'no_fresh_rate', `${line}\n→ ${answer.body}`);
          else assert.deepEqual([answer.status, body.rates, body.missing], [200, {}, ['USD', 'JPY']], `${line}\n→ ${answer.body}`);
          assert.ok(body.message.length > 0);
          offline.push(/http:\/\/127\.0\.0\.1:8080(\S+?)'?$/.exec(line)![1]!);
        }
      }
      // Exactly the README's lines about current rates of a pair, as its words say.
      if (!fresh) assert.deepEqual(offline, ['/v1/rate/EUR/USD?amount=100', '/v1/rates/convert']);
    });

    test('the README\'s one command for a demo offline makes the seed\'s rates fresh today', async () => {
      const grace = /`KURS_FRESHNESS_GRACE_DAYS=(\d+) npm start`/.exec(README);
      assert.ok(grace, 'the README names the command');
      const demo = new Market(t.store, SOURCES, Number(grace[1]));
      await demo.rebuild(new Date());
      const today = utcDay(new Date());
      for (const code of ['EUR', 'USD', 'GBP', 'JPY']) assert.ok(demo.current.rates.isFresh(code, today), `${code} with KURS_FRESHNESS_GRACE_DAYS=${grace[1]}`);
    });
  });

  describe('once the ECB\'s figures of yesterday are in', () => {
    before(async () => {
      await ecbYesterday(t.store);
      await t.market.rebuild(new Date());
    });

    for (const { where, lines, cost } of EXAMPLES) {
      test(`${where}: every curl line answers 2xx with a body that holds something, ${cost} points in all as the text says`, async () => {
        const k = await key();
        for (const line of lines) holdsSomething(await curl(line, k));
        assert.equal(1000 - (await pointsLeft(k)), cost);
      });
    }
  });
});
