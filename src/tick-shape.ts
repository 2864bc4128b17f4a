// One of Node's tick objects, kept for the life of the process (bin/kurs does it at boot).
// process.nextTick builds each tick as an object literal with two symbol keys; V8 keeps the hidden
// classes of that literal only while some such object is alive. A full collection at an instant when
// none is (any idle moment) lets them go, and after a few, nextTick's optimized code stops caching
// how to add those keys and asks V8's runtime for every tick: ~0.25 µs a tick instead of ~0.01. A
// charged GET makes about eight ticks, so that was ~2 µs of a ~16 µs request, on every server that
// had collected a few times, for the rest of its life (docs/performance.md, seventh round). A tick
// object that stays alive keeps those classes, and with them the fast path.
import { executionAsyncResource } from 'node:async_hooks';

/** Module-level on purpose: its only job is to stay reachable for the life of the process. */
let kept: object | undefined;

/** Keeps the next tick's own object (the async resource of a nextTick callback); resolves with it. */
export function keepTickShape(): Promise<object> {
  return new Promise((resolve) =>
    process.nextTick(() => {
      kept = executionAsyncResource();
      resolve(kept);
    }),
  );
}
