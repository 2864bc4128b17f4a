// The layers of src/, lowest first (issue 37 item 2): a module imports only from its own layer or
// below, so the domain (rates/, history/) never reaches into HTTP, and storage never into the
// serving code. The import-circles tool finds circles; this finds an import that points upward
// without closing one. Type-only imports count: they tie a lower layer to a higher one all the same.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Lowest first. A module is a folder of src/, or a file at its top (named without `.ts`). */
const LAYERS: readonly (readonly string[])[] = [
  ['time', 'money', 'version', 'config', 'tick-shape', 'lazy-require'],
  ['currencies'],
  ['sources'],
  ['blend'],
  ['store'],
  ['access'],
  ['rates'],
  ['history'],
  ['ingest'],
  ['http'],
  ['mcp'],
  ['runtime'],
  ['server'],
  ['cli'],
];

const layerOf = new Map(LAYERS.flatMap((mods, i) => mods.map((m) => [m, i] as const)));
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.ts$/.test(e.name) && !/\.(test|contract|d)\.ts$/.test(e.name) ? [path] : [];
  });
}

/** The module of a path under src/, or undefined outside it (client/dist, package.json). */
function moduleOf(path: string): string | undefined {
  const rel = relative(SRC, path);
  if (rel.startsWith('..')) return undefined;
  const first = rel.split(/[\\/]/)[0]!;
  return first.replace(/\.(js|ts)$/, '');
}

function upwardImports(): string[] {
  const found: string[] = [];
  for (const file of sources(SRC)) {
    const from = moduleOf(file)!;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = moduleOf(normalize(join(dirname(file), spec!)));
      if (to === undefined || to === from) continue;
      const [a, b] = [layerOf.get(from), layerOf.get(to)];
      assert.ok(a !== undefined && b !== undefined, `${relative(SRC, file)}: module ${a === undefined ? from : to} has no layer in LAYERS`);
      if (b > a) found.push(`${relative(SRC, file)} imports ${spec} (${from} is below ${to})`);
    }
  }
  return found;
}

test('no module of src/ imports from a layer above its own', () => {
  assert.deepEqual(upwardImports(), []);
});

test('every module of src/ has a layer, and the list names no module that is gone', () => {
  const present = new Set(sources(SRC).map((f) => moduleOf(f)!));
  assert.deepEqual([...layerOf.keys()].filter((m) => !present.has(m)), []);
  assert.deepEqual([...present].filter((m) => !layerOf.has(m)).sort(), []);
});
