// The parsing thread's worker (started by parser-thread.ts): finds the adapter by its code in the
// registry, parses and validates each payload it is sent (prepare.ts), and posts the rows back in
// slices, or the failure in the words the source's health shows; runs follow steps likewise.
import { parentPort } from 'node:worker_threads';
import { sourceByCode } from '../sources/index.js';
import type { ParseJob, ParseReply } from './parser-thread.js';
import { describeFailure, prepare } from './prepare.js';

/** Rows per message: copying one slice into the main thread takes a few milliseconds. */
const ROWS_PER_MESSAGE = 2_000;

const port = parentPort!;
const post = (m: ParseReply) => port.postMessage(m);
/** Jobs whose next slice waits for the main thread to ask for it. */
const asked = new Map<number, () => void>();

port.on('message', async (job: ParseJob | { next: number }) => {
  if ('next' in job) {
    asked.get(job.next)?.();
    return;
  }
  if ('follow' in job) {
    try {
      const { page, window, ctx } = job.follow;
      const source = sourceByCode(job.code);
      if (!source?.follow) throw new Error(`${job.code}: no adapter with a follow step has this code`);
      // The page's body arrives as a plain Uint8Array: adapters read it as the Buffer fetch gave them.
      post({ id: job.id, requests: source.follow({ ...page, body: Buffer.from(page.body.buffer, page.body.byteOffset, page.body.byteLength) }, window, ctx) });
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      post({ id: job.id, followError: { name: e.name, message: e.message } });
    }
    return;
  }
  try {
    const source = sourceByCode(job.code);
    if (!source) throw new Error(`no adapter has the code ${job.code}`);
    const body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
    const { rows, skipped } = await prepare(source, { name: job.name, body }, job.today);
    // One slice at a time, the next when the main thread asks: slices posted at once would all be
    // read there in one task (a port delivers every queued message together): ECBF's 217k figures
    // held the loop ~0.5 s so (D30).
    for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) {
      if (i > 0) await new Promise<void>((r) => asked.set(job.id, r));
      post({ id: job.id, rows: rows.slice(i, i + ROWS_PER_MESSAGE) });
    }
    asked.delete(job.id);
    post({ id: job.id, skipped });
  } catch (err) {
    post({ id: job.id, failure: describeFailure(err) });
  }
});
