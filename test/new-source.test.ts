// The scaffold, run as a contributor runs it, into a temporary copy of the repository: a recorded
// payload in its test/fixtures/sources/ZZZZ/, node_modules linked, not copied.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { changelogWith, register, sharedFixtures } from '../scripts/new-source.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const NEEDED = ['src', 'scripts', 'test/support', 'CHANGELOG.md', 'package.json', 'tsconfig.json'];

describe('npm run new-source -- ZZZZ in a copy of the repository', () => {
  let root = '';
  let repo = '';
  let run: { status: number | null; stdout: string; stderr: string } = { status: null, stdout: '', stderr: '' };

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'kurs-new-source-'));
    repo = join(root, 'kurs');
    for (const path of NEEDED) cpSync(join(REPO, path), join(repo, path), { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(repo, 'node_modules'), 'dir');
    const fixtures = join(repo, 'test', 'fixtures', 'sources', 'ZZZZ');
    mkdirSync(fixtures, { recursive: true });
    writeFileSync(join(fixtures, 'SOURCE.md'), '# ZZZZ\nRecorded by hand for the scaffold test.\n');
    writeFileSync(join(fixtures, 'rates-2026-03-02.csv'), 'date,currency,rate\n2026-03-02,USD,1.2345\n');
    run = scaffold('ZZZZ');
  });

  /** `npm run new-source -- <code>` in the copy, as a contributor runs it (not under CI, not a subtest). */
  const scaffold = (code: string) => {
    const env = { ...process.env };
    delete env.CI;
    delete env.NODE_TEST_CONTEXT;
    const out = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/new-source.ts', code], { cwd: repo, env, encoding: 'utf8', timeout: 120_000 });
    return { status: out.status, stdout: out.stdout, stderr: out.stderr };
  };

  after(() => rmSync(root, { recursive: true, force: true }));

  test('writes the adapter with a TODO per field, and its test listing the recorded payload', () => {
    assert.equal(run.status, 0, run.stderr);
    const adapter = readFileSync(join(repo, 'src/sources/banks/zzzz.ts'), 'utf8');
    for (const field of ['name', 'countryCode', 'currency', 'cadence', 'schedule', 'publishedAtUtc', 'feedUrl', 'termsUrl', 'terms', 'grade']) {
      assert.match(adapter, new RegExp(`// TODO[^\\n]*\\n(  //[^\\n]*\\n)*(  [a-zA-Z]+: [^\\n]*\\n)*  ${field}: `), `${field} has no TODO above it`);
    }
    const test = readFileSync(join(repo, 'src/sources/banks/zzzz.test.ts'), 'utf8');
    assert.match(test, /fixtureDir\('ZZZZ'\)/);
    assert.match(test, /const FILES = \[\n {2}'rates-2026-03-02\.csv',\n\];/);
    // Where a contributor states the answers without rates and the window the recordings cover.
    assert.match(test, /\/\/ TODO[^\n]*\n\/\/[^\n]*NoPublication[^\n]*\nconst NO_RATES: readonly string\[\] = \[\];/);
    assert.match(test, /\/\/ TODO[^\n]*\nconst WINDOW = \{ from: '2026-03-02', to: '2026-03-06' \};/);
  });

  test('registers the source in code order and adds a CHANGELOG line', () => {
    const index = readFileSync(join(repo, 'src/sources/index.ts'), 'utf8');
    assert.match(index, /import \{ source as USTR \} from '\.\/banks\/ustr\.js';\nimport \{ source as ZZZZ \} from '\.\/banks\/zzzz\.js';/);
    assert.match(index, /RSBK, SARB, SBPP, SISL, STAN, TANZ, TCMB, USTR, ZZZZ,\n\];/);
    assert.match(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8'), /\n- Source ZZZZ \(TODO: the bank's name; its feed's format\)\.\n/);
  });

  test('runs the generated test once: it reads the payload folder and fails where the TODOs are', () => {
    assert.match(run.stdout, /# tests 6\n# suites 3\n# pass 2\n# fail 4\n/);
    assert.match(run.stdout, /not ok \d+ - every recorded payload is accepted, SOURCE\.md is not/);
    assert.match(run.stdout, /TODO: parse rates-2026-03-02\.csv/);
    assert.match(run.stdout, /ok \d+ - the requests for a window are built on the base URL and accepted/);
  });

  test('the generated files type-check under the strict tsconfig', () => {
    writeFileSync(join(repo, 'tsconfig.scaffold.json'), JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: { noEmit: true, rootDir: '.' },
      include: ['src/sources/banks/zzzz.ts', 'src/sources/banks/zzzz.test.ts', 'src/sources/index.ts'],
    }));
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.scaffold.json'], { cwd: repo, encoding: 'utf8', timeout: 120_000 });
    assert.equal(tsc.status, 0, tsc.stdout);
  });

  test('refuses a code that exists already and a malformed code', () => {
    const again = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/new-source.ts', 'ZZZZ'], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
    assert.equal(again.status, 1);
    assert.match(again.stderr, /ZZZZ exists already/);
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/new-source.ts', 'ZZ-Z'], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
    assert.equal(bad.status, 2);
    assert.ok(existsSync(join(repo, 'src/sources/banks/zzzz.ts')));
  });

  test('copies recordings waiting beside the repository (shared/fixtures/<wave>/) into test/fixtures/sources/, byte for byte', () => {
    const staged = join(root, 'shared', 'fixtures', 'wave9', 'ZZZY');
    mkdirSync(staged, { recursive: true });
    writeFileSync(join(staged, 'SOURCE.md'), '# ZZZY\n');
    const bytes = Buffer.from([0x3c, 0x72, 0x2f, 0x3e, 0x0d, 0x0a, 0xff, 0x00]);
    writeFileSync(join(staged, 'rates-2014-05-30.xml'), bytes);
    const out = scaffold('ZZZY');
    assert.equal(out.status, 0, out.stderr);
    assert.doesNotMatch(out.stderr, /record the feed's payloads/);
    assert.match(out.stdout, /copied the recordings of .*ZZZY to test\/fixtures\/sources\/ZZZY\//);
    assert.deepEqual(readFileSync(join(repo, 'test/fixtures/sources/ZZZY/rates-2014-05-30.xml')), bytes);
    assert.equal(readFileSync(join(repo, 'test/fixtures/sources/ZZZY/SOURCE.md'), 'utf8'), '# ZZZY\n');
    assert.match(readFileSync(join(repo, 'src/sources/banks/zzzy.test.ts'), 'utf8'), /const FILES = \[\n {2}'rates-2014-05-30\.xml',\n\];/);
  });
});

test('register puts the first code before every other, and the changelog line ends Unreleased', () => {
  const index = "import { source as BBBB } from './banks/bbbb.js';\nimport type { Source } from './types.js';\n\nexport const SOURCES: readonly Source[] = [\n  BBBB,\n];\n";
  assert.equal(register(index, 'AAAA'), "import { source as AAAA } from './banks/aaaa.js';\nimport { source as BBBB } from './banks/bbbb.js';\nimport type { Source } from './types.js';\n\nexport const SOURCES: readonly Source[] = [\n  AAAA, BBBB,\n];\n");
  assert.equal(changelogWith('# C\n\n## Unreleased\n\n- one\n\n## 0.1.0\n- old\n', 'AAAA'), "# C\n\n## Unreleased\n\n- one\n- Source AAAA (TODO: the bank's name; its feed's format).\n\n## 0.1.0\n- old\n");
});

test('finds the shared recordings beside the checkout, or beside a folder above it (a worktree under wt/)', () => {
  const root = mkdtempSync(join(tmpdir(), 'kurs-shared-'));
  try {
    mkdirSync(join(root, 'shared', 'fixtures'), { recursive: true });
    mkdirSync(join(root, 'wt', 'period'), { recursive: true });
    assert.equal(sharedFixtures(join(root, 'main')), join(root, 'shared', 'fixtures'));
    assert.equal(sharedFixtures(join(root, 'wt', 'period')), join(root, 'shared', 'fixtures'));
    rmSync(join(root, 'shared'), { recursive: true });
    assert.equal(sharedFixtures(join(root, 'wt', 'period')), undefined);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
