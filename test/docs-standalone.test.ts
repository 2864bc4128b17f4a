// The repository explains itself: the interface and every decision are in docs/, each decision under
// a stable anchor, and neither the README nor the code sends a reader to documents outside the
// repository. Only the recorded payloads (fixtures) live outside it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The files a reader of the repository meets: docs, README, CONTRIBUTING and the code (not its tests). */
function readerFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir)).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) return name === 'testdata' ? [] : walk(path);
      return /\.(ts|md)$/.test(name) && !/\.(test|contract)\.ts$/.test(name) ? [path] : [];
    });
  return ['README.md', 'CONTRIBUTING.md', ...walk('docs'), ...walk('src')];
}

test('no reader-facing file points at design or interface documents outside the repository', () => {
  const outside = /shared\/(DESIGN|spec|STYLE|SOURCES)|DESIGN\.md|interface\.md|SOURCES(-2)?\.md/;
  const hits = readerFiles().flatMap((path) =>
    read(path)
      .split('\n')
      .flatMap((line, i) => (outside.test(line) ? [`${relative(ROOT, join(ROOT, path))}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(hits, []);
});

test('docs/decisions.md has one heading per decision, D1 onward, in order', () => {
  const headings = [...read('docs/decisions.md').matchAll(/^## (D(\d+)) (.+)$/gm)];
  assert.ok(headings.length >= 19, `${headings.length} decisions`);
  assert.deepEqual(headings.map((h) => Number(h[2])), Array.from({ length: headings.length }, (_, i) => i + 1));
  // GitHub's anchor for "## D8 Bank rates" is #d8-bank-rates, the form code and docs link to.
  const anchors = headings.map((h) => `${h[1]} ${h[3]}`.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-'));
  assert.ok(anchors.includes('d8-bank-rates'), anchors.join(', '));
  for (const link of read('docs/api.md').matchAll(/decisions\.md#([a-z0-9-]+)/g)) assert.ok(anchors.includes(link[1]!), `docs/api.md links to a missing #${link[1]}`);
});

test('every decision the code cites (D1…D19) exists in docs/decisions.md', () => {
  const known = new Set([...read('docs/decisions.md').matchAll(/^## D(\d+) /gm)].map((m) => Number(m[1])));
  const cited = new Set(readerFiles().flatMap((path) => [...read(path).matchAll(/\bD(\d{1,2})\b/g)].map((m) => Number(m[1]))));
  assert.deepEqual([...cited].filter((n) => !known.has(n)), []);
  assert.ok(cited.size >= 10, `only ${cited.size} decisions cited`);
});
