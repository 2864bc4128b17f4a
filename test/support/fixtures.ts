// Where the recorded central-bank payloads live (../shared/fixtures/sources, beside the repository),
// and what a test does without them: locally it skips with a message; when CI is set it fails, so a
// green CI always means the payload tests ran.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIXTURES_ROOT = new URL('../../../shared/fixtures/sources/', import.meta.url);

export interface FixtureDir {
  /** The folder, as a URL ending in `/` (`new URL(file, dir)` names a payload in it). */
  dir: URL;
  /** `false` when the folder exists, else the reason to skip (node:test's `skip` option). */
  skip: string | false;
}

/** The recorded payloads of one source (`fixtureDir('ECBF')`), or the whole corpus (`fixtureDir()`). */
export function fixtureDir(code?: string): FixtureDir {
  const dir = code === undefined ? FIXTURES_ROOT : new URL(`${code}/`, FIXTURES_ROOT);
  if (existsSync(dir)) return { dir, skip: false };
  const reason = `shared fixtures not found at ${fileURLToPath(dir)}`;
  if (process.env.CI) throw new Error(`${reason}: CI is set, so the payload tests must run, not skip`);
  return { dir, skip: reason };
}
