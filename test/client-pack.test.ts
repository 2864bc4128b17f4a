// `npm pack` of client/ gives a package a fresh project installs (offline: it has no dependencies),
// type-checks against with the browser's lib, and runs against a live Kurs server. A copy of
// client/ outside the repository builds with its own TypeScript.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, unknown>>;

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

  test('a copy of client/ outside the repository installs its own TypeScript (offline, from its lock) and builds', async () => {
    const root = json(fileURLToPath(new URL('../package.json', import.meta.url)));
    const client = json(join(CLIENT_DIR, 'package.json'));
    assert.equal(client.devDependencies!.typescript, root.devDependencies!.typescript, 'the TypeScript the server is built with');
    const rootLock = json(fileURLToPath(new URL('../package-lock.json', import.meta.url))).packages as Record<string, { version?: string; integrity?: string }>;
    const clientLock = json(join(CLIENT_DIR, 'package-lock.json')).packages as Record<string, { version?: string; integrity?: string }>;
    assert.deepEqual([clientLock['node_modules/typescript']!.version, clientLock['node_modules/typescript']!.integrity], [rootLock['node_modules/typescript']!.version, rootLock['node_modules/typescript']!.integrity], 'one TypeScript in both locks');
    const copy = join(work, 'copy');
    for (const entry of ['src', 'package.json', 'package-lock.json', 'tsconfig.json']) cpSync(join(CLIENT_DIR, entry), join(copy, entry), { recursive: true });
    // Offline: the root's own install put this very TypeScript (same integrity) in npm's cache.
    const run = (args: string[]) => promisify(execFile)('npm', args, { cwd: copy, encoding: 'utf8' });
    await run(['ci', '--offline', '--no-audit', '--no-fund']);
    await run(['run', 'build']);
    assert.ok(existsSync(join(copy, 'dist', 'index.d.ts')), 'the types are built');
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(join(copy, 'dist', 'index.js'))}); console.log(typeof m.KursClient, typeof m.parseExact)`], { encoding: 'utf8' });
    assert.equal(stdout.trim(), 'function function');
  });
});
