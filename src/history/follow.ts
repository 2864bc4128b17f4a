// Keeps history in step while the server runs: on every "data may have changed" signal the ingesting
// instance materialises the touched days (and a new calendar day), the others reload what it wrote.
// At most one run at a time; a signal during a run asks for one more.
import type { History } from './history.js';
import { Stopped } from './materialise.js';

export interface HistoryFollower {
  /** New data may have landed (or another instance materialised): catch up. */
  onData(): void;
  setLeader(leader: boolean): void;
  /** Stops: a materialisation in progress ends at its next chunk; resolves when nothing runs. */
  stop(): Promise<void>;
}

export interface FollowLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export function followHistory(history: History, today: () => string, log: FollowLog): HistoryFollower {
  let leader = false;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = async () => {
    if (leader) {
      const started = Date.now();
      const done = await history.materialise(today());
      if (done.days > 0) log.info({ days: done.days, ranges: done.ranges, ms: Date.now() - started }, 'history materialised');
    } else {
      await history.sync();
    }
  };
  const kick = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch((err: unknown) => (err instanceof Stopped ? undefined : log.error({ err }, 'history could not catch up')))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  return {
    onData: kick,
    setLeader(value) {
      leader = value;
      kick();
    },
    async stop() {
      stopped = true;
      history.stop();
      while (running) await running;
    },
  };
}
