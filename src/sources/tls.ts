// Per-source TLS trust. A few publishers serve their leaf certificate without the intermediate that
// links it to a root; a browser fetches the missing one, Node does not. Such a source names the
// intermediates it needs (files in certs/), and only its requests trust Node's roots plus those.
import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { fileURLToPath } from 'node:url';
import type { Agent, Dispatcher } from 'undici';
import { requiredOnFirstUse } from '../lazy-require.js';
import type { Source } from './types.js';

/** The npm undici, loaded when a source first needs a pool of its own (a few do, for their TLS),
 *  not with the sources at every start, fetching or not (a server that does not ingest never needs
 *  it): imported alone it took ~80 ms on a slow VM. */
export const undici = requiredOnFirstUse<typeof import('undici')>('undici');

/** The same folder from src/sources/ (tsx) and dist/sources/ (built): the package ships certs/. */
export const CERTS_DIR = new URL('../../certs/', import.meta.url);

/** The PEM text of each intermediate file read so far, by URL. Module-level: the files ship with the
 *  package and do not change while it runs, so this is a memo of a read every source may share. */
const loaded = new Map<string, string>();

/** The PEM text of each intermediate `source` names; a missing file is an error that names the file
 *  to drop in, so that a broken install says what to fix instead of failing every TLS handshake. */
export function intermediatesOf(source: Pick<Source, 'code' | 'tlsIntermediates'>, dir: URL = CERTS_DIR): string[] {
  return (source.tlsIntermediates ?? []).map((file) => {
    const url = new URL(file, dir);
    const known = loaded.get(url.href);
    if (known !== undefined) return known;
    const path = fileURLToPath(url);
    if (!existsSync(path)) throw new Error(`${source.code}: TLS intermediate certificate ${path} is missing; see certs/README.md for where to get it`);
    const pem = readFileSync(path, 'utf8');
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`${source.code}: ${path} holds no PEM certificate`);
    loaded.set(url.href, pem);
    return pem;
  });
}

export const DEFAULT_ROOTS: readonly string[] = rootCertificates;

/** One connection pool per set of trusted certificates. Module-level so that every request of one
 *  trust set, whichever source or client makes it, reuses the same pool and its kept-alive sockets
 *  (a pool per caller would open new connections and hold their sockets twice). At most a few. */
const agents = new Map<string, Agent>();

/** A connection pool trusting `roots` plus `extras`, one per distinct set, kept for reuse. */
export function agentTrusting(roots: readonly string[], extras: readonly string[]): Dispatcher {
  // Node's roots are one fixed list: keyed by the extras alone, no 200 kB key per request.
  const key = `${roots === DEFAULT_ROOTS ? 'node' : roots.join('\n')}\0${extras.join('\n')}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new (undici().Agent)({ connect: { ca: [...roots, ...extras] } });
    agents.set(key, agent);
  }
  return agent;
}
