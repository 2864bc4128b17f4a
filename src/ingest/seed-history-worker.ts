// A first start's seed-history load in a worker thread with its own SQLite connection (issue 26),
// followed by materialising the days it touched. On SQLite every write, and every day's blend, runs
// on the thread that makes it: on the server's thread, during a first start that loads the history
// itself, p99 of /v1/USD/latest (10 connections, the shared 2-core machine at load average 10–12)
// was 281 ms at the median 3 s slice while the rows loaded, and 314 ms (2.1 s at worst) while they
// were materialised. Here the batches and the blends only hold the database's write lock, with the
// loader's pauses, so other writers still get it. Started by startSeedHistory (seed-history.ts);
// it posts `foreign` when another writer stored data, and its report at the end. The server's own
// History then catches up (a few days at most) and finds every day materialised.
import { parentPort, workerData } from 'node:worker_threads';
import { History } from '../history/history.js';
import { Stopped } from '../history/materialise.js';
import { enabledSources } from '../sources/enabled.js';
import { SOURCES } from '../sources/index.js';
import { openSqlite } from '../store/open.js';
import { loadSeedHistory, type WorkerInput, type WorkerMessage } from './seed-history.js';
import { openSeedHistory } from './seed-history-file.js';

const input = workerData as WorkerInput;
const port = parentPort!;
const abort = new AbortController();
port.on('message', (m) => {
  if (m === 'stop') abort.abort();
});
const post = (m: WorkerMessage) => port.postMessage(m);
const store = openSqlite(input.path, input.sync);
try {
  const sources = enabledSources(SOURCES, input.enable);
  const file = await openSeedHistory(input.file ? new URL(input.file) : undefined);
  const report = await loadSeedHistory(store, sources, file, () => new Date(), { signal: abort.signal, onForeignData: () => post({ foreign: true }), since: input.since });
  if (report.stored > 0 && !abort.signal.aborted) {
    const started = performance.now();
    const history = new History(store, sources, input.graceDays);
    abort.signal.addEventListener('abort', () => history.stop(), { once: true });
    await history.load();
    try {
      const done = await history.materialise(input.today);
      post({ materialised: { days: done.days, ranges: done.ranges, ms: Math.round(performance.now() - started) } });
    } catch (err) {
      // Stopped: the server is closing; its next start catches up.
      if (!(err instanceof Stopped)) throw err;
    }
  }
  post({ report });
} catch (err) {
  post({ error: err instanceof Error ? err.message : String(err) });
} finally {
  await store.close();
  port.close();
}
