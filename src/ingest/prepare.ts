// The pure half of an ingest: a payload parsed by its adapter and validated (validate.ts), with no
// store and no clock. The server runs it in a worker thread (parse-worker.ts) and `kurs ingest` in
// its own thread, so both share this one function and its one wording of every failure.
import { NoPublication, ParseError, type Payload, type Source } from '../sources/types.js';
import { IngestRejected, normalize, type Normalized } from './validate.js';

/** Parses and validates one payload; `today` (UTC) bounds how far ahead a figure may be dated. The
 *  rows come in date order, which the store compares them in (src/store/snapshot-sql.ts): sorted
 *  here, in the worker, not on the thread that answers requests. */
export async function prepare(source: Source, payload: Payload, today: string): Promise<Normalized> {
  const n = normalize(await source.parse(payload), today, source.periodRates === true);
  n.rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return n;
}

/** What ingestPayload parses with: `prepare` in this thread, or the server's parsing thread's
 *  (parser-thread.ts). */
export type Preparer = (source: Source, payload: Payload, today: string) => Promise<Normalized>;

/** A parse, or a store (D30), cut short because the server is stopping: nothing about the feed is recorded. */
export class ParserStopped extends Error {
  override name = 'ParserStopped';
}

/** Why a payload was not stored, as the source's health and the log say it. */
export type Failure = { status: 'no_publication'; reason: string } | { status: 'failed'; reason: string; rejected: boolean };

/** A failure said once (in a worker, say) and thrown again where the outcome is recorded. */
export class PreparedFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.reason);
    this.name = 'PreparedFailure';
  }
}

/** The error boundary's words: a feed's bad answer is `rejected`; anything else is an adapter or
 *  store bug, named by its class, and fails this payload only. */
export function describeFailure(err: unknown): Failure {
  if (err instanceof PreparedFailure) return err.failure;
  if (err instanceof NoPublication) return { status: 'no_publication', reason: err.message };
  const rejected = err instanceof ParseError || err instanceof IngestRejected;
  const e = err instanceof Error ? err : new Error(String(err));
  return { status: 'failed', reason: rejected ? e.message : `unexpected ${e.name}: ${e.message}`, rejected };
}
