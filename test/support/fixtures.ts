// Where the recorded payloads live: test/fixtures/sources/<CODE>/, byte for byte, each folder with its
// SOURCE.md of provenance. They are part of the repository, so a clone anywhere tests itself: a
// missing folder is a broken checkout or a typo, and fails the test that asks for it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIXTURES_ROOT = new URL('../fixtures/sources/', import.meta.url);

/** The recorded payloads of one source (`fixtureDir('ECBF')`), or the whole corpus (`fixtureDir()`),
 *  as a URL ending in `/` (`new URL(file, dir)` names a payload in it). */
export function fixtureDir(code?: string): URL {
  const dir = code === undefined ? FIXTURES_ROOT : new URL(`${code}/`, FIXTURES_ROOT);
  if (!existsSync(dir)) throw new Error(`recorded payloads not found at ${fileURLToPath(dir)}`);
  return dir;
}
