// The ingest transaction: parse → validate → store one snapshot atomically. The error boundary:
// a failing payload is reported, never half-stored, and never stops the next one.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Source, Payload } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { normalize } from './validate.js';

export type IngestOutcome =
  | { source: string; name: string; status: 'stored'; inserted: number; revised: number; unchanged: number; skipped: string[] }
  | { source: string; name: string; status: 'duplicate' }
  | { source: string; name: string; status: 'failed'; reason: string };

export const sha256 = (body: Buffer | string) => createHash('sha256').update(body).digest('hex');

export async function ingestPayload(store: Store, source: Source, payload: Payload, now: Date): Promise<IngestOutcome> {
  const base = { source: source.code, name: payload.name };
  try {
    const { rows, skipped } = normalize(source.parse(payload), now.toISOString().slice(0, 10));
    const result = await store.storeSnapshot({ source: source.code, name: payload.name, sha256: sha256(payload.body), rows, at: now.toISOString() });
    return result.status === 'duplicate' ? { ...base, status: 'duplicate' } : { ...base, ...result, skipped };
  } catch (err) {
    return { ...base, status: 'failed', reason: err instanceof Error ? err.message : String(err) };
  }
}

export interface DirReport {
  outcomes: IngestOutcome[];
  /** Folders with no adapter (issue: sources land one by one). */
  unknownFolders: string[];
}

/** `<dir>/<BANK_CODE>/<payload files>`; `only` limits the banks. */
export async function ingestDir(store: Store, sources: readonly Source[], dir: string, now: () => Date, only?: string[]): Promise<DirReport> {
  const report: DirReport = { outcomes: [], unknownFolders: [] };
  const byCode = new Map(sources.map((s) => [s.code, s]));
  for (const folder of (await readdir(dir)).sort()) {
    if (!(await stat(join(dir, folder))).isDirectory()) continue;
    if (only && !only.includes(folder.toUpperCase())) continue;
    const source = byCode.get(folder.toUpperCase());
    if (!source) {
      report.unknownFolders.push(folder);
      continue;
    }
    for (const name of (await readdir(join(dir, folder))).sort()) {
      if (!source.accepts(name)) continue;
      const body = await readFile(join(dir, folder, name));
      report.outcomes.push(await ingestPayload(store, source, { name, body }, now()));
    }
  }
  return report;
}
