// A parse worker whose adapter throws outside any promise: the thread dies with the payload in hand
// (test/parse-worker.test.ts).
import { parentPort } from 'node:worker_threads';

parentPort!.on('message', () => {
  throw new Error("an adapter's bug outside its promise");
});
