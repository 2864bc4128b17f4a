// Turns of the event loop in long work on the thread that answers requests. better-sqlite3 answers
// synchronously, so on SQLite an `await` on the store lets no request in: a rates rebuild, a history
// catch-up or a feed's comparison with what is stored held the loop for its whole length until it
// gave turns of its own (issue 34, D29, D30).

/** One turn: what is waiting (a request, a timer, I/O) runs before the work goes on. */
export const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** How long a slice of such work runs before it turns the loop: a request that arrives meanwhile
 *  waits about this long (more on a busy machine), and the turns cost well under 1 % of the work. */
export const SLICE_MS = 12;

/** A clock for work in slices: `next()` turns the loop once the current slice has run SLICE_MS. */
export class Slices {
  private started = performance.now();

  constructor(private readonly ms = SLICE_MS) {}

  /** Whether the current slice has run its time. */
  get due(): boolean {
    return performance.now() - this.started >= this.ms;
  }

  /** Turns the loop if the slice is due (or `now`), and starts the next slice. */
  async next(now = false): Promise<void> {
    if (!now && !this.due) return;
    await turn();
    this.started = performance.now();
  }
}

/** Work written as a generator that yields where it may pause, and returns its result: run whole
 *  (`ranWhole`) where the caller is synchronous, or in slices (`inTurns`) on the thread that
 *  answers requests. One code path for both, so the result cannot differ. */
export type Steps<T> = Generator<void, T, void>;

export function ranWhole<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

export async function inTurns<T>(steps: Steps<T>, slices = new Slices()): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await slices.next();
  }
}
