// Every `curl` line of the README and of docs/api.md's history section runs as a reader would run
// it, against a first-start server (the bundled seed and its history, a first start's professional
// key with 1,000 points, the clock at the seed's newest day), and must answer 2xx with a body that
// holds something: the examples cannot rot, and an example that costs points for an empty answer
// shows up here.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers.js';

const run = promisify(execFile);
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

const EXAMPLES: { where: string; lines: string[] }[] = [
  { where: 'README.md', lines: curlLines(read('README.md')) },
  { where: 'docs/api.md, History', lines: curlLines(section(read('docs/api.md'), '## History (D14–D16)')) },
];

describe('the README\'s curl examples against a first-start server', () => {
  let t: TestApp;
  let port: string;
  let key: string;
  before(async () => {
    t = await testApp({ seedHistory: true });
    port = new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port;
    // What the first start creates and prints.
    key = (await t.key({ plan: 'professional', points: 1000 })).key;
  });
  after(() => t.close());

  test('the README and docs/api.md have curl examples to run', () => {
    assert.ok(EXAMPLES[0]!.lines.length >= 10, EXAMPLES[0]!.lines.join('\n'));
    assert.ok(EXAMPLES[1]!.lines.length >= 5, EXAMPLES[1]!.lines.join('\n'));
  });

  for (const { where, lines } of EXAMPLES) {
    test(`${where}: every curl line answers 2xx with a body that holds something`, async () => {
      for (const line of lines) {
        assert.match(line, /http:\/\/127\.0\.0\.1:8080\//, `${line}: the documented address`);
        // As written, but on this server's port, with the status after the body.
        const command = `${line.replace('curl ', "curl -sS -w '\\n%{http_code}' ").replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)}`;
        const { stdout } = await run('sh', ['-c', command], { env: { ...process.env, KEY: key }, maxBuffer: 256 * 1024 * 1024 });
        const cut = stdout.lastIndexOf('\n');
        const [body, status] = [stdout.slice(0, cut), Number(stdout.slice(cut + 1))];
        assert.ok(status >= 200 && status < 300, `${line}\n→ ${status} ${body.slice(0, 300)}`);
        assert.ok(body.trim().length > 0, `${line}: an empty body`);
        const json = body.startsWith('{') && !body.includes('}\n{') ? (JSON.parse(body) as { rates?: object; missing?: string[] }) : undefined;
        if (json?.rates) assert.ok(Object.keys(json.rates).length > 0, `${line}: rates {}`);
        if (body.startsWith('date,')) assert.ok(body.trim().split('\n').length > 1, `${line}: a CSV header alone`);
      }
    });
  }
});
