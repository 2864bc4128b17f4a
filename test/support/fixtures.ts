// Where the recorded central-bank payloads live (../shared/fixtures/sources, beside the repository;
// payloads of publishers whose adapters are new wait in ../shared/fixtures/wave3 until they move),
// and what a test does without them: locally it skips with a message; when CI is set it fails, so a
// green CI always means the payload tests ran.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIXTURES_ROOT = new URL('../../../shared/fixtures/sources/', import.meta.url);
/** Recorded payloads staged beside the corpus, laid out like it (one folder per code). */
export const WAVE3_ROOT = new URL('../../../shared/fixtures/wave3/', import.meta.url);

export interface FixtureDir {
  /** The folder, as a URL ending in `/` (`new URL(file, dir)` names a payload in it). */
  dir: URL;
  /** `false` when the folder exists, else the reason to skip (node:test's `skip` option). */
  skip: string | false;
}

/** The recorded payloads of one source (`fixtureDir('ECBF')`: in sources/, else in wave3/), or the
 *  whole corpus (`fixtureDir()`, sources/ only; `fixtureDir(undefined, WAVE3_ROOT)` for wave3/). */
export function fixtureDir(code?: string, root: URL = FIXTURES_ROOT): FixtureDir {
  const candidates = code === undefined ? [root] : [new URL(`${code}/`, root), new URL(`${code}/`, WAVE3_ROOT)];
  const dir = candidates.find((c) => existsSync(c));
  if (dir) return { dir, skip: false };
  const reason = `shared fixtures not found at ${fileURLToPath(candidates[0]!)}`;
  if (process.env.CI) throw new Error(`${reason}: CI is set, so the payload tests must run, not skip`);
  return { dir: candidates[0]!, skip: reason };
}
