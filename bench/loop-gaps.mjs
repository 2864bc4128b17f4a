// Preloaded into a server by bench/first-minute.ts --cpu-prof (`node --import`): records every gap
// of more than 40 ms between two ticks of a 5 ms timer (the event loop held) and writes them, in
// process.hrtime microseconds (the clock of a V8 .cpuprofile's samples), to KURS_LOOP_GAPS at exit.
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.KURS_LOOP_GAPS;
if (file && isMainThread) {
  const gaps = [];
  let last = process.hrtime.bigint();
  setInterval(() => {
    const now = process.hrtime.bigint();
    if (now - last > 40_000_000n) gaps.push([Number(last / 1000n), Number(now / 1000n)]);
    last = now;
  }, 5).unref();
  process.on('exit', () => writeFileSync(file, JSON.stringify(gaps)));
}
