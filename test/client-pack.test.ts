// `npm pack` of client/ gives a package a fresh project installs (offline: it has no dependencies),
// type-checks against with the browser's lib, and runs against a live Kurs server.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { testApp, type TestApp } from './helpers.js';

const CLIENT_DIR = fileURLToPath(new URL('../client/', import.meta.url));
const TSC = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));

/** A TypeScript program for the browser's lib (no Node types): `process` is declared here. */
const TYPED = `import { KursClient, KursError, type LatestResponse } from 'kurs-client';
declare const process: { env: Record<string, string | undefined> };
const kurs = new KursClient({ baseUrl: process.env.KURS_URL!, apiKey: process.env.KURS_API_KEY, etagCache: true });
const latest: LatestResponse = await kurs.latest('EUR');
const exact = await new KursClient({ baseUrl: process.env.KURS_URL!, exact: true }).rate('EUR', 'USD', { amount: 10 });
const converted: string = exact.converted;
const err: unknown = await kurs.latest('EUR', { amount: 0 }).catch((e: unknown) => e);
if (err instanceof KursError) console.log(err.error, err.pointsRemaining, latest.rates, converted);
`;

/** The same calls in plain JavaScript: what the package ships must run on Node as it is. */
const PLAIN = `import { KursClient, KursError } from 'kurs-client';
const kurs = new KursClient({ baseUrl: process.env.KURS_URL, apiKey: process.env.KURS_API_KEY });
const latest = await kurs.latest('EUR');
const exact = await new KursClient({ baseUrl: process.env.KURS_URL, apiKey: process.env.KURS_API_KEY, exact: true }).rate('EUR', 'USD', { amount: 10 });
const err = await kurs.latest('EUR', { amount: 0 }).catch((e) => e);
console.log(JSON.stringify({ eur: latest.rates.EUR, converted: exact.converted, error: err instanceof KursError ? err.error : String(err) }));
`;

describe('the packed kurs-client in a fresh project', () => {
  let t: TestApp;
  let url: string;
  let key: string;
  const work = mkdtempSync(join(tmpdir(), 'kurs-client-pack-'));
  before(async () => {
    t = await testApp();
    key = (await t.key({ plan: 'business', points: 100 })).key;
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await t.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('installs from its tarball with no network, type-checks, and calls the server', async () => {
    const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    npm(['pack', '--pack-destination', work], CLIENT_DIR);
    const tarball = readdirSync(work).find((f) => /^kurs-client-.*\.tgz$/.test(f));
    assert.ok(tarball, `no tarball in ${readdirSync(work).join(', ')}`);
    const project = join(work, 'app');
    execFileSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', '--offline', '--no-audit', '--no-fund', join(work, tarball)], project);
    assert.deepEqual(readdirSync(join(project, 'node_modules')).filter((d) => !d.startsWith('.')), ['kurs-client'], 'zero dependencies');
    writeFileSync(join(project, 'use.ts'), TYPED);
    execFileSync(process.execPath, [TSC, '--noEmit', '--pretty', 'false', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,dom', 'use.ts'], { cwd: project, encoding: 'utf8' });
    writeFileSync(join(project, 'use.mjs'), PLAIN);
    // Asynchronously: the server answering it runs in this process.
    const { stdout: out } = await promisify(execFile)(process.execPath, ['use.mjs'], { cwd: project, env: { ...process.env, KURS_URL: url, KURS_API_KEY: key }, encoding: 'utf8' });
    const seen = JSON.parse(out) as { eur: number; converted: string; error: string };
    assert.equal(seen.eur, 1);
    assert.match(seen.converted, /^\d+\.\d+$/);
    assert.equal(seen.error, 'invalid_parameter');
  });
});
