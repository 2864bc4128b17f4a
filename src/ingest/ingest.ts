// The ingest transaction: parse → validate → store one snapshot atomically. The error boundary:
// a failing payload is reported, never half-stored, and never stops the next one.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { feedMaxBytes } from '../sources/http.js';
import { acceptedName } from '../sources/recorded-name.js';
import type { Payload, Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { addDays } from '../time/days.js';
import { findJump, MAX_GAP_DAYS } from './jumps.js';
import { describeFailure, ParserStopped, prepare, type Preparer } from './prepare.js';
import { IngestRejected } from './validate.js';

export type IngestOutcome =
  | { source: string; name: string; status: 'stored'; inserted: number; revised: number; unchanged: number; skipped: string[] }
  | { source: string; name: string; status: 'duplicate' }
  | { source: string; name: string; status: 'no_publication'; reason: string }
  | { source: string; name: string; status: 'failed'; reason: string; rejected: boolean };

export const sha256 = (body: Buffer | string) => createHash('sha256').update(body).digest('hex');

export interface IngestOptions {
  /** The operator accepts moves beyond the jump rule (a real devaluation). */
  acceptJumps?: boolean;
  /** The bundled seed, not a fetch: store the figures but record no attempt in the source's health,
   *  so "last success" keeps meaning a real fetch or import. */
  seed?: boolean;
  /** Where the payload is parsed: the server's parsing thread (parser-thread.ts); default this one. */
  prepare?: Preparer;
  /** A stop: storing gives up between slices of its comparison and records nothing (D30). */
  signal?: AbortSignal;
}

/** Parses, validates and stores one payload, and records the outcome in the source's health (not for
 *  the seed). A parse or a store cut short by a stop is thrown on as ParserStopped: nothing is
 *  recorded. */
export async function ingestPayload(store: Store, source: Source, payload: Payload, now: Date, opts: IngestOptions = {}): Promise<IngestOutcome> {
  const base = { source: source.code, name: payload.name };
  const at = now.toISOString();
  let outcome: IngestOutcome;
  try {
    const { rows, skipped } = await (opts.prepare ?? prepare)(source, payload, at.slice(0, 10));
    const hash = sha256(payload.body);
    // A period rate is the legal figure for its period whatever it moved (D21): no jump rule.
    if (!opts.acceptJumps && !source.periodRates) {
      const first = rows.reduce((m, r) => (r.date < m ? r.date : m), rows[0]!.date);
      // Figures further back than MAX_GAP_DAYS are never compared: the look stops there.
      const jump = findJump(await store.previousRates(source.code, first, addDays(first, -MAX_GAP_DAYS)), rows);
      if (jump) throw new IngestRejected(jump);
    }
    const result = await store.storeSnapshot({ source: source.code, name: payload.name, sha256: hash, rows, at, ...(opts.signal ? { signal: opts.signal } : {}) });
    outcome = result.status === 'duplicate' ? { ...base, status: 'duplicate' } : { ...base, ...result, skipped };
  } catch (err) {
    if (err instanceof ParserStopped) throw err;
    if (opts.signal?.aborted) throw new ParserStopped('stopped while storing');
    // The error boundary: a bad payload (or an adapter bug) fails this payload only.
    outcome = { ...base, ...describeFailure(err) };
  }
  if (!opts.seed) await store.recordFetch({ source: source.code, at, ...(outcome.status === 'failed' ? { error: outcome.reason, rejected: outcome.rejected } : {}) });
  return outcome;
}

export interface DirReport {
  outcomes: IngestOutcome[];
  /** Folders with no adapter (issue: sources land one by one). */
  unknownFolders: string[];
  /** Files no adapter reads, as `<folder>/<file>`: those in unknown folders and those the folder's
   *  adapter does not accept. A recorded source's description (`SOURCE.md`) is not counted. */
  skippedFiles: string[];
}

/** The folder's description in the recorded corpus (test/fixtures/sources/<CODE>/SOURCE.md). */
const DESCRIPTION = 'SOURCE.md';

export interface DirOptions extends IngestOptions {
  /** The operator's feed limit (KURS_FEED_MAX_BYTES), over each source's own (D36). */
  maxBytes?: number;
}

/** A file larger than its source's feed limit is not read (D36): a folder is as much input as a
 *  feed, and one stray dump must not take the process's memory. It fails as a fetch over the limit
 *  does, in the output and in the source's health. */
async function overLimit(store: Store, source: Source, folder: string, file: string, size: number, limit: number, at: Date): Promise<IngestOutcome> {
  const reason = `file ${folder}/${file} is ${size} bytes, larger than the feed limit of ${limit} bytes (KURS_FEED_MAX_BYTES)`;
  await store.recordFetch({ source: source.code, at: at.toISOString(), error: reason });
  return { source: source.code, name: file, status: 'failed', reason, rejected: false };
}

/** `<dir>/<BANK_CODE>/<payload files>`; `only` limits the banks. */
export async function ingestDir(store: Store, sources: readonly Source[], dir: string, now: () => Date, only?: string[], opts: DirOptions = {}): Promise<DirReport> {
  const report: DirReport = { outcomes: [], unknownFolders: [], skippedFiles: [] };
  const byCode = new Map(sources.map((s) => [s.code, s]));
  for (const folder of (await readdir(dir)).sort()) {
    if (!(await stat(join(dir, folder))).isDirectory()) continue;
    if (only && !only.includes(folder.toUpperCase())) continue;
    const source = byCode.get(folder.toUpperCase());
    if (!source) report.unknownFolders.push(folder);
    for (const file of (await readdir(join(dir, folder))).sort()) {
      if (file === DESCRIPTION) continue;
      const name = source && acceptedName(source, file);
      if (!source || name === undefined) {
        report.skippedFiles.push(`${folder}/${file}`);
        continue;
      }
      const path = join(dir, folder, file);
      const limit = feedMaxBytes(opts.maxBytes, source.maxBytes);
      const { size } = await stat(path);
      if (size > limit) {
        report.outcomes.push(await overLimit(store, source, folder, file, size, limit, now()));
        continue;
      }
      const body = await readFile(path);
      // The adapter parses under the name it knows; the operator reads the file's own name.
      const outcome = await ingestPayload(store, source, { name, body }, now(), opts);
      report.outcomes.push({ ...outcome, name: file });
    }
  }
  return report;
}
