// The rates worker (started by rates-thread.ts): opens its own connection to the server's database,
// reads the recent figures itself and builds the rates (build.ts), keeping the measured quality
// between builds; posts back the build in text (rates-wire.ts) or the error.
import { parentPort, workerData } from 'node:worker_threads';
import { QualityCache } from '../blend/quality-cache.js';
import { openStore } from '../store/open.js';
import { buildRates } from './build.js';
import type { BuildJob, BuildReply, WorkerData } from './rates-thread.js';
import { toWire } from './rates-wire.js';

const port = parentPort!;
// The server's database settings (its timeouts), with one connection: one build at a time (the
// rebuild queue's), reads only.
const { databaseUrl, pg } = workerData as WorkerData;
const opened = openStore(databaseUrl, { ...pg, poolSize: 1 });
// A store that cannot be opened fails each build (below), not the worker.
opened.catch(() => undefined);
const cache = new QualityCache();

port.on('message', async (job: BuildJob) => {
  let reply: BuildReply;
  try {
    const built = await buildRates(await opened, job.sources, new Date(job.now), job.graceDays, cache);
    reply = { id: job.id, built: toWire(built) };
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    reply = { id: job.id, error: { name: e.name, message: e.message, stack: e.stack ?? '' } };
  }
  port.postMessage(reply);
});
