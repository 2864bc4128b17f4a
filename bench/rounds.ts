// The rounds of one server merged into one result (a pure helper of the bench's).
import { median } from '../src/blend/consensus.js';
import type { Result } from './servers.js';

/** Rounds of one server merged: the median round's req/s and latencies, requests summed, CPU per
 *  request over all rounds, and the busiest generator. */
export function merged(rounds: { r: Result; cpu: number }[]): { r: Result; cpu: number } {
  const sum = (f: (r: Result) => number) => rounds.reduce((a, x) => a + f(x.r), 0);
  const requests = sum((r) => r.ok + r.non2xx);
  const r: Result = {
    rps: median(rounds.map((x) => x.r.rps)),
    p50: median(rounds.map((x) => x.r.p50)),
    p99: median(rounds.map((x) => x.r.p99)),
    ok: sum((r) => r.ok),
    non2xx: sum((r) => r.non2xx),
    genCpu: Math.max(...rounds.map((x) => x.r.genCpu)),
    generators: rounds[0]!.r.generators,
  };
  return { r, cpu: rounds.reduce((a, x) => a + x.cpu * (x.r.ok + x.r.non2xx), 0) / requests };
}
