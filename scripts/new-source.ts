// `npm run new-source -- XXXX`: the four files of a new bank (CONTRIBUTING.md): the adapter skeleton
// and its test in src/sources/banks/, the registry line in src/sources/index.ts (in code order), a
// CHANGELOG line. Recordings that wait outside the repository (../shared/fixtures/<wave>/<CODE>/)
// are copied in byte for byte to test/fixtures/sources/<CODE>/. Then it runs the new test once, so
// the contributor sees where to start.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adapterFile, testFile } from './source-template.js';

const ROOT = new URL('../', import.meta.url);
const at = (path: string) => fileURLToPath(new URL(path, ROOT));

/** The registry with `code` imported and listed, both in code order. */
export function register(index: string, code: string): string {
  const lower = code.toLowerCase();
  const line = `import { source as ${code} } from './banks/${lower}.js';`;
  const lines = index.split('\n');
  const imports = lines.map((l, i) => [l, i] as const).filter(([l]) => /^import \{ source as [A-Z0-9]{4} \}/.test(l));
  if (imports.length === 0) throw new Error('src/sources/index.ts: no adapter imports found');
  const after = imports.filter(([l]) => l < line).pop();
  lines.splice(after ? after[1] + 1 : imports[0]![1], 0, line);
  const withImport = lines.join('\n');
  const list = /export const SOURCES: readonly Source\[\] = \[\n([^\]]*)\];/.exec(withImport);
  if (!list) throw new Error('src/sources/index.ts: the SOURCES list is not where it should be');
  const codes = [...list[1]!.matchAll(/[A-Z0-9]{4}/g)].map((m) => m[0]);
  codes.push(code);
  codes.sort();
  const rows: string[] = [];
  // Sixteen codes a line, as the list is written by hand.
  for (let i = 0; i < codes.length; i += 16) rows.push(`  ${codes.slice(i, i + 16).join(', ')},`);
  return withImport.replace(list[0], `export const SOURCES: readonly Source[] = [\n${rows.join('\n')}\n];`);
}

/** The nearest `shared/fixtures` beside the checkout or beside a folder above it (a git worktree
 *  under `wt/` sits one level deeper than the main checkout). */
export function sharedFixtures(from = fileURLToPath(ROOT)): string | undefined {
  for (let dir = resolve(from, '..'); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'shared', 'fixtures'))) return join(dir, 'shared', 'fixtures');
    if (dirname(dir) === dir) return undefined;
  }
}

/** The folder of recordings waiting for `code` beside the repository (`../shared/fixtures/<wave>/<CODE>/`),
 *  if any: where new recordings arrive before their adapter exists. */
export function stagedFixtures(code: string, shared = sharedFixtures()): string | undefined {
  if (shared === undefined || !existsSync(shared)) return undefined;
  return readdirSync(shared, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(shared, d.name, code))
    .find((dir) => existsSync(join(dir, 'SOURCE.md')));
}

/** The changelog with one line for the new source at the end of the Unreleased section. */
export function changelogWith(changelog: string, code: string): string {
  const entry = `- Source ${code} (TODO: the bank's name; its feed's format).`;
  const start = changelog.indexOf('## Unreleased');
  if (start < 0) throw new Error('CHANGELOG.md has no "## Unreleased" section');
  const next = changelog.indexOf('\n## ', start + 1);
  const end = next < 0 ? changelog.length : next;
  const head = changelog.slice(0, end).replace(/\n*$/, '\n');
  return `${head}${entry}\n${next < 0 ? '' : '\n'}${changelog.slice(end).replace(/^\n+/, '')}`;
}

function main(argv: readonly string[]): number {
  const code = (argv[0] ?? '').toUpperCase();
  if (!/^[A-Z0-9]{4}$/.test(code)) {
    console.error('usage: npm run new-source -- XXXX   (the bank\'s BIC4 code, D9; it is never renamed)');
    return 2;
  }
  const lower = code.toLowerCase();
  const adapter = at(`src/sources/banks/${lower}.ts`);
  const test = at(`src/sources/banks/${lower}.test.ts`);
  if (existsSync(adapter) || existsSync(test)) {
    console.error(`${code} exists already: src/sources/banks/${lower}.ts`);
    return 1;
  }
  const dir = at(`test/fixtures/sources/${code}`);
  const staged = existsSync(dir) ? undefined : stagedFixtures(code);
  if (staged) {
    cpSync(staged, dir, { recursive: true, preserveTimestamps: true });
    console.log(`copied the recordings of ${staged} to test/fixtures/sources/${code}/`);
  }
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f !== 'SOURCE.md').sort() : [];
  if (!existsSync(dir)) console.warn(`no recordings in test/fixtures/sources/${code}/ (nor in ../shared/fixtures/*/${code}/): record the feed's payloads first (CONTRIBUTING.md).`);
  writeFileSync(adapter, adapterFile(code));
  writeFileSync(test, testFile(code, files));
  writeFileSync(at('src/sources/index.ts'), register(readFileSync(at('src/sources/index.ts'), 'utf8'), code));
  writeFileSync(at('CHANGELOG.md'), changelogWith(readFileSync(at('CHANGELOG.md'), 'utf8'), code));
  console.log(`wrote src/sources/banks/${lower}.ts, src/sources/banks/${lower}.test.ts; registered ${code} in src/sources/index.ts; added a CHANGELOG line`);
  console.log(`running src/sources/banks/${lower}.test.ts once: it fails until the TODOs are done.\n`);
  // Run as a test run of its own, even when the scaffold itself runs under node:test (its own test).
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', `src/sources/banks/${lower}.test.ts`], { cwd: fileURLToPath(ROOT), env, stdio: 'inherit' });
  console.log(`\nnext: fill the TODOs in src/sources/banks/${lower}.ts and its test, until this passes:\n  node --import tsx --test src/sources/banks/${lower}.test.ts src/sources/index.test.ts`);
  return run.status === null ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
