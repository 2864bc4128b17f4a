// The docs that count and list the sources say what the registry says: adding a bank edits no test,
// and this one fails until the README's count, docs/data.md's count and its "Every source" table
// follow the registry (CONTRIBUTING, "Adding a source", step 5).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SOURCES } from '../src/sources/index.js';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const CODES = SOURCES.map((s) => s.code).sort();

test('README.md and docs/data.md give the number of sources the registry holds', () => {
  for (const path of ['README.md', 'docs/data.md']) {
    const count = /^(\d+) sources, one adapter each in `src\/sources\/banks\/`/m.exec(read(path))?.[1];
    assert.equal(count, String(SOURCES.length), `${path}: "${count} sources"`);
  }
});

test('docs/data.md lists every source once in "Every source", in code order, with its publisher and base', () => {
  const section = read('docs/data.md').split('\n## Every source\n')[1]?.split('\n## ')[0] ?? '';
  const rows = [...section.matchAll(/^\| ([A-Z0-9]{4}) \| ([^|]+) \| [^|]+ \| ([A-Z]{3}) \|/gm)];
  assert.deepEqual(rows.map((r) => r[1]), CODES);
  for (const [, code, name, base] of rows) {
    const s = SOURCES.find((x) => x.code === code)!;
    assert.equal(base, s.currency, `${code} base`);
    assert.ok(name!.trim().startsWith(s.name.split(' (')[0]!), `${code}: "${name!.trim()}" is not "${s.name}"`);
  }
});
