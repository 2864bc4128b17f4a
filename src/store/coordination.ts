// How instances sharing one database agree on who ingests and learn of new data. PostgreSQL: one
// dedicated connection per instance holds a session advisory lock (the ingester) and LISTENs on
// DATA_CHANNEL. SQLite is one process: it always ingests and polls for data stored by the CLI.
import type pg from 'pg';
import { pgLib } from './pg-lib.js';
import { DATA_CHANNEL } from './snapshot-sql.js';

export interface CoordinationEvents {
  /** New data may have landed: check and rebuild. Also called after (re)connecting, for what was missed. */
  onData(): void;
  /** This instance gained (true) or lost (false) the ingester role. */
  onLeader(leader: boolean): void;
  onError?(err: Error): void;
}

export interface Coordination {
  start(events: CoordinationEvents): void;
  stop(): Promise<void>;
}

export class PollingCoordination implements Coordination {
  private timer?: NodeJS.Timeout;
  constructor(private readonly intervalMs: number) {}

  start(events: CoordinationEvents): void {
    events.onLeader(true);
    this.timer = setInterval(() => events.onData(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
  }
}

/** The lock is per schema, so two deployments sharing a database through search_path do not collide. */
const TRY_LOCK = `select pg_try_advisory_lock(hashtext(current_schema() || ':kurs-ingester')) as ok`;

export class PgCoordination implements Coordination {
  private client?: pg.Client;
  private leader = false;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private events?: CoordinationEvents;

  /**
   * `tickMs`: how often a follower tries for the lock and the holder checks its connection. A dead
   * leader's session ends with its TCP connection, so a follower takes over within about one tick.
   * `contend: false` (KURS_INGEST=off) only listens: such an instance must never hold the lock, or
   * no instance would ingest.
   */
  constructor(
    private readonly url: string,
    private readonly tickMs: number,
    private readonly connectTimeoutMs: number,
    private readonly contend = true,
  ) {}

  get isLeader(): boolean {
    return this.leader;
  }

  start(events: CoordinationEvents): void {
    this.events = events;
    void this.tick();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.tickMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      if (!this.client) await this.connect();
      const { rows } = await this.client!.query<{ ok: boolean }>(this.leader || !this.contend ? 'select false as ok' : TRY_LOCK);
      if (!this.leader && rows[0]!.ok) this.setLeader(true);
    } catch (err) {
      this.events!.onError?.(err as Error);
      this.drop();
    }
    this.schedule();
  }

  private async connect(): Promise<void> {
    const client = new (pgLib().Client)({ connectionString: this.url, connectionTimeoutMillis: this.connectTimeoutMs, query_timeout: this.connectTimeoutMs, keepAlive: true });
    client.on('error', () => this.drop());
    client.on('end', () => this.drop());
    client.on('notification', () => this.events!.onData());
    this.client = client;
    await client.connect();
    // The server frees the lock when it sees this session die. A killed process closes its socket at
    // once; for a host that vanishes, these keepalives bound the wait to about 30 s (the default is hours).
    await client.query('set tcp_keepalives_idle = 15; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3');
    await client.query(`LISTEN ${DATA_CHANNEL}`);
    // Whatever was stored while we were not listening.
    this.events!.onData();
  }

  /** The session is gone, and the lock with it: stop ingesting at once; the next tick reconnects. */
  private drop(): void {
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
    }
    if (this.leader) this.setLeader(false);
  }

  private setLeader(leader: boolean): void {
    this.leader = leader;
    this.events!.onLeader(leader);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    if (this.leader) this.setLeader(false);
    // Ending the session releases the advisory lock for the next instance.
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
