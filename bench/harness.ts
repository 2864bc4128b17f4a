// How `npm run bench` loads servers and checks what they charged (run.ts holds the rows): warm-up,
// loads with the server's CPU per request, accounts with keys, the points spent checked against the
// 2xx count, and `versus`, Kurs and its bare baseline loaded in turns.
import { writeFileSync } from 'node:fs';
import { createKey } from '../src/access/accounts.js';
import type { Store } from '../src/store/store.js';
import { merged } from './rounds.js';
import { cpuMsOf, historySettled, KURS_ENV, loadMany, peakRssMb, startKurs, startMeterServer, stop, type Request, type Result, type Running } from './servers.js';

export interface Settings {
  connections: number;
  /** Seconds per load (the PostgreSQL rows). */
  seconds: number;
  /** `versus`: rounds of each server, and seconds per round. */
  pairs: number;
  roundSeconds: number;
  /** Unmeasured load first, so that a fresh server is measured with its code compiled (JIT) and its caches warm. */
  warmSeconds: number;
  /** Each account's points: enough never to run out. */
  points: number;
}

export interface Measured {
  r: Result;
  cpu: number;
  /** Points charged during the load, and whether they match the 2xx count. */
  charged: number;
  exact: boolean;
  /** Peak RSS (MB) of the servers, and of `versus`'s server before the load (undefined where the peak cannot be restarted). */
  rss: number;
  bootRss?: number;
}

export interface Versus {
  m: Measured;
  b: { r: Result; cpu: number };
  /** Kurs's req/s over the baseline's, round by round. */
  ratios: number[];
}

/** What `measure` starts and loads. */
export interface Servers {
  dbUrl: string;
  store: Store;
  meter: string;
  instances: number;
  accounts: number;
  req: Request;
  /** node:http plus the meter alone, sending these bytes, instead of Kurs. */
  meterOnly?: string;
  env?: Record<string, string>;
}

/** Restarts a server's peak RSS (VmHWM) from its RSS now (Linux's clear_refs); false where it cannot. */
function resetPeakRss(pid: number | undefined): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const settle = () => new Promise((r) => setTimeout(r, 300));

export class Harness {
  private readonly warmed = new Set<Running>();

  constructor(private readonly s: Settings) {}

  async warm(servers: Running[], req: Request, keys: string[]): Promise<void> {
    const cold = servers.filter((s) => !this.warmed.has(s));
    if (cold.length > 0) await loadMany(cold.map((s) => s.url), req, keys, this.s.connections, this.s.warmSeconds);
    for (const s of cold) this.warmed.add(s);
  }

  /** Load on the servers, and the CPU they used per answered request (µs). */
  async load(servers: Running[], req: Request, keys: string[], generators = 1, seconds = this.s.seconds): Promise<{ r: Result; cpu: number }> {
    await this.warm(servers, req, keys);
    const before = servers.map((s) => cpuMsOf(s.child.pid));
    const r = await loadMany(servers.map((s) => s.url), req, keys, this.s.connections, seconds, generators);
    const used = servers.reduce((sum, s, i) => sum + cpuMsOf(s.child.pid) - before[i]!, 0);
    return { r, cpu: (used * 1000) / (r.ok + r.non2xx) };
  }

  async keysFor(store: Store, count: number): Promise<{ keys: string[]; accounts: string[] }> {
    const made = await Promise.all(Array.from({ length: count }, () => createKey(store, { plan: 'business', points: this.s.points }, new Date())));
    return { keys: made.map((m) => m.key), accounts: made.map((m) => m.account_id) };
  }

  private async spent(store: Store, accounts: string[]): Promise<number> {
    const left = await Promise.all(accounts.map(async (a) => (await store.getAccount(a))!.points));
    return left.reduce((sum, p) => sum + (this.s.points - p), 0);
  }

  /** autocannon stops with requests in flight (at each of `loads` stops): those may be charged without
   *  being counted, never the reverse. */
  private exact(r: Result, charged: number, loads = 1): boolean {
    return charged >= r.ok && charged <= r.ok + this.s.connections * loads;
  }

  /** Starts the servers, loads them and returns the result, the points charged (checked against the
   *  2xx count) and the peak RSS seen. */
  async measure(o: Servers): Promise<Measured> {
    const { keys, accounts } = await this.keysFor(o.store, o.accounts);
    const servers: Running[] = [];
    const kurs = () => startKurs({ ...KURS_ENV, KURS_DATABASE_URL: o.dbUrl, KURS_METER: o.meter, ...o.env });
    // A first start on a fresh database loads the bundled history and materialises it in the
    // background; one server does that first, so the measured ones start as on every later start.
    if (o.meterOnly === undefined) {
      const first = await kurs();
      await historySettled(first).finally(() => stop(first));
    }
    for (let i = 0; i < o.instances; i++) servers.push(await (o.meterOnly === undefined ? kurs() : startMeterServer({ url: o.dbUrl, meter: o.meter, accounts, body: o.meterOnly })));
    if (o.meterOnly === undefined) await Promise.all(servers.map((s) => historySettled(s)));
    try {
      await this.warm(servers, o.req, keys);
      // The warm-up's last requests (in flight when it stopped) are charged within moments.
      await settle();
      const start = await this.spent(o.store, accounts);
      const { r, cpu } = await this.load(servers, o.req, keys);
      const rss = Math.max(...servers.map((s) => peakRssMb(s.child) ?? 0));
      const charged = (await this.spent(o.store, accounts)) - start;
      return { r, cpu, charged, rss, exact: this.exact(r, charged) };
    } finally {
      await Promise.all(servers.map(stop));
    }
  }

  /** Two servers loaded in turn `pairs` times with the same requests: each one's rounds merged
   *  (rounds.ts), and `a`'s req/s over `b`'s, round by round. The order alternates (`b` first, then
   *  `a` first) so that a steady drift of the machine favours neither. */
  async inTurns(a: Running, b: Running, req: Request, keys: string[]): Promise<{ a: { r: Result; cpu: number }; b: { r: Result; cpu: number }; ratios: number[] }> {
    await this.warm([a, b], req, keys);
    const as: { r: Result; cpu: number }[] = [];
    const bs: { r: Result; cpu: number }[] = [];
    for (let i = 0; i < this.s.pairs; i++) {
      const one = (s: Running) => this.load([s], req, keys, 1, this.s.roundSeconds);
      if (i % 2 === 0) bs.push(await one(b)), as.push(await one(a));
      else as.push(await one(a)), bs.push(await one(b));
    }
    return { a: merged(as), b: merged(bs), ratios: as.map((x, i) => x.r.rps / bs[i]!.r.rps) };
  }

  /** `inTurns`'s ratios alone. */
  async turns(a: Running, b: Running, req: Request, keys: string[]): Promise<number[]> {
    return (await this.inTurns(a, b, req, keys)).ratios;
  }

  /**
   * One Kurs server on `db` (default settings but `env`) and the bare baseline, loaded in turn
   * `pairs` times with the same generator settings and the same key; every point charged is checked
   * against the 2xx count.
   */
  async versus(db: { url: string; store: Store }, bare: Running, req: Request, env: Record<string, string> = {}): Promise<Versus> {
    const { keys, accounts } = await this.keysFor(db.store, 1);
    // The probe's start loaded and materialised the seed's history, so this one finds it there.
    const kurs = await startKurs({ ...KURS_ENV, KURS_DATABASE_URL: db.url, ...env });
    try {
      await historySettled(kurs);
      // Row 5b is the peak under load: VmHWM counts the whole life, and the start's peak (a worker
      // thread that checks the bundled history, beside the server's own heap) came before any load.
      const boot = peakRssMb(kurs.child);
      const bootRss = resetPeakRss(kurs.child.pid) ? boot : undefined;
      await this.warm([bare], req, keys);
      await this.warm([kurs], req, keys);
      await settle();
      const start = await this.spent(db.store, accounts);
      const { a: m, b, ratios } = await this.inTurns(kurs, bare, req, keys);
      const rss = peakRssMb(kurs.child) ?? 0;
      const charged = (await this.spent(db.store, accounts)) - start;
      return { m: { ...m, charged, rss, bootRss, exact: this.exact(m.r, charged, this.s.pairs) }, b, ratios };
    } finally {
      await stop(kurs);
    }
  }
}
