// Runs as a child process for test/feed-faults.test.ts: feeds every adapter each faulty payload
// through the real ingest path, on the test's SQLite file, reporting before and after each one so
// that the main thread can stop a parser that never returns (a synchronous loop blocks its process).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ingestPayload } from '../../src/ingest/ingest.js';
import { SOURCES } from '../../src/sources/index.js';
import type { Payload, Source } from '../../src/sources/types.js';
import { openSqlite } from '../../src/store/open.js';

const { dbPath, fixtures, now } = JSON.parse(process.argv[2]!) as { dbPath: string; fixtures: string; now: string };
const post = (message: object) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

const HTML_ERROR = '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request. Please try again later.</p></body></html>';

/** The smallest recorded payload that holds rates (not a form or a link page), if the corpus has one. */
async function realPayload(source: Source): Promise<Payload | undefined> {
  const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  const dir = join(fixtures, source.code);
  if (!isDir(dir)) return undefined;
  const names = readdirSync(dir).filter((n) => source.accepts(n));
  for (const name of names.sort((a, b) => statSync(join(dir, a)).size - statSync(join(dir, b)).size)) {
    const payload = { name, body: readFileSync(join(dir, name)) };
    const rates = await Promise.resolve()
      .then(() => source.parse(payload))
      .catch(() => []);
    if (rates.length > 0) return payload;
  }
  return undefined;
}

export const FAULTS = ['empty body', 'HTML error page', 'truncated payload', 'wrong encoding', "another source's payload"] as const;

function faulty(fault: (typeof FAULTS)[number], real: Payload, other: Payload): Buffer {
  switch (fault) {
    case 'empty body':
      return Buffer.alloc(0);
    case 'HTML error page':
      return Buffer.from(HTML_ERROR);
    case 'truncated payload':
      return real.body.subarray(0, real.body.length >> 1);
    case 'wrong encoding':
      // The bytes re-encoded as UTF-16: what a misconfigured proxy or export does to a feed.
      return Buffer.from(real.body.toString('latin1'), 'utf16le');
    case "another source's payload":
      return other.body;
  }
}

const store = openSqlite(dbPath);
const payloads: (Payload | undefined)[] = [];
for (const source of SOURCES) payloads.push(await realPayload(source));
for (const [i, source] of SOURCES.entries()) {
  const real = payloads[i];
  if (!real) {
    await post({ type: 'skipped', code: source.code });
    continue;
  }
  // The next source with a payload in a different format (by file extension) than this one's.
  const ext = (p: Payload) => p.name.split('.').pop();
  const other = payloads.find((p, j) => j > i && p && ext(p) !== ext(real)) ?? payloads.find((p) => p && ext(p) !== ext(real))!;
  for (const fault of FAULTS) {
    await post({ type: 'start', code: source.code, fault });
    const outcome = await ingestPayload(store, source, { name: real.name, body: faulty(fault, real, other) }, new Date(now));
    await post({ type: 'done', code: source.code, fault, outcome });
    if (process.env.FAULTS_DEBUG) process.stderr.write(`${source.code}\t${fault}\t${real.name}\t${outcome.status}\t${'reason' in outcome ? outcome.reason.slice(0, 140) : ''}\n`);
  }
}
await store.close();
await post({ type: 'end' });
process.disconnect();
