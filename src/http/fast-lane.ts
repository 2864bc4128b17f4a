// The fast lane: the hottest requests, a charged GET of /v1/{base}/latest, /v1/rate/{base}/{target}
// (at most `?amount=`) or /v1/{base}/{date}, answered on node:http directly when they are plainly
// fine: a key already verified in the key cache, not expired, on a plan that includes the endpoint,
// under its request limit when one instance counts it in memory, no Origin, no If-None-Match, a
// known currency and a rate to give. Fastify's lifecycle (a Request, a Reply, a child logger, hooks
// in four phases) cost more than half of such a request's CPU on top of a bare server
// (docs/performance.md); this lane does only the work whose effects can be seen. Anything else, and
// any request the lane cannot finish with a 200 (a failed charge, an unknown code), goes to Fastify,
// which answers it as before: the lane changes no answer, which test/fast-lane.test.ts checks byte
// for byte against the same requests with the lane off.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Balances } from '../access/balances.js';
import type { KeyCache } from '../access/key-cache.js';
import { hashKey } from '../access/keys.js';
import type { Meter } from '../access/meter.js';
import { DECIDED, type Decided, type LimitDecision, type RequestLimiter } from '../access/rate-limit.js';
import type { UsageRecorder } from '../access/usage.js';
import type { EndpointId } from '../config.js';
import type { Market } from '../rates/market.js';
import { utcDay } from '../time/days.js';
import type { History } from '../history/history.js';
import type { HistoryReadiness } from '../ingest/seed-history.js';
import { type Answer, dayAnswer, HISTORY_DAY_ROUTE, LATEST_ROUTE, latestAnswer, RATE_ROUTE, rateAnswer } from './answers.js';
import { KEY_SHAPE } from './auth.js';
import { type Prices, priceOf, putLimit, putPoints, putValidators, refusalOf } from './charged.js';
import type { CorsOrigins } from './cors.js';
import type { Admission } from './limits.js';
import { JSON_TYPE } from './reply.js';
import { requestLine, type RequestSampler } from './request-log.js';
import type { RequestStats } from './request-stats.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface LaneParts {
  keys: KeyCache;
  limiter: RequestLimiter;
  meter: Meter;
  market: Market;
  history: History;
  /** Whether the seed's history has loaded (absent: it has); dated requests wait for it. */
  historyLoaded: HistoryReadiness | undefined;
  pointsCost: Prices;
  now: () => Date;
  balances: Balances;
  usage: UsageRecorder;
  stats: RequestStats;
  admission: Admission;
  /** Where request lines go (the app's log stream) when they are logged at all (`info` or below). */
  logLine: ((line: string) => void) | undefined;
  /** Which requests get a line (shared with Fastify's RequestLog). */
  sampler: RequestSampler;
  /** A failure after the charge (none is expected): logged, and the connection cut if nothing was sent. */
  onError: (err: unknown) => void;
  corsOrigins: CorsOrigins;
}

/** A request the lane recognised: which route, and how to build its answer (throws to hand over). */
interface Matched {
  route: string;
  endpoint: EndpointId;
  answer: () => Answer | Promise<Answer>;
  /** Whether the answer's body is kept with its table (so worth keeping as bytes). */
  kept: boolean;
}

/** The bytes of bodies kept with a table (/latest's, a day's), made once each: a 2.3 KB string was
 *  measured and encoded on every request. Bodies built per request (an amount) are sent as text. */
const bytes = new WeakMap<object, Buffer>();
function bytesOf(entity: Answer['body']): Buffer {
  let b = bytes.get(entity);
  if (!b) bytes.set(entity, (b = Buffer.from(entity.body)));
  return b;
}

const isAmountChar = (c: number) => (c >= 48 && c <= 57) || c === 46;
const isDateChar = (c: number) => (c >= 48 && c <= 57) || c === 45;

/** `amount=<digits and dots>` and nothing else (no other name, no escapes), or undefined. */
function plainAmount(query: string): string | undefined {
  if (!query.startsWith('amount=') || query.length === 7) return undefined;
  for (let i = 7; i < query.length; i++) if (!isAmountChar(query.charCodeAt(i))) return undefined;
  return query.slice(7);
}

/** `/v1/USD/2020-06-15`: three characters, then ten digits and dashes (dayParam checks the rest). */
function datedPath(path: string): boolean {
  if (path.length !== 18 || path.charCodeAt(7) !== 47) return false;
  for (let i = 8; i < 18; i++) if (!isDateChar(path.charCodeAt(i))) return false;
  return true;
}

export class FastLane {
  /** The last well-formed key each open connection sent, with its SHA-256: a client sends the same
   *  key on every request of a connection, and hashing it was ~2% of a request's CPU. Held no longer
   *  than the connection (whose buffers hold the key anyway); never stored or logged. */
  private readonly hashes = new WeakMap<Socket, { key: string; hash: string }>();

  constructor(private readonly parts: LaneParts) {}

  private hashOf(socket: Socket, key: string): string | undefined {
    const last = this.hashes.get(socket);
    if (last?.key === key) return last.hash;
    if (!KEY_SHAPE.test(key)) return undefined;
    const hash = hashKey(key);
    this.hashes.set(socket, { key, hash });
    return hash;
  }

  private match(url: string, at: Date): Matched | undefined {
    if (!url.startsWith('/v1/')) return undefined;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const { market, history, historyLoaded } = this.parts;
    // /v1/USD/latest, without a query (an amount makes a body per request: Fastify's path is as good).
    if (q < 0 && path.length === 14 && path.endsWith('/latest')) {
      const rates = market.current.rates;
      return { route: LATEST_ROUTE, endpoint: 'latest', kept: true, answer: () => latestAnswer(rates, utcDay(at), path.slice(4, 7), undefined) };
    }
    // /v1/rate/EUR/USD, optionally with ?amount=1234.56
    if (path.length === 16 && path.startsWith('/v1/rate/') && path.charCodeAt(12) === 47) {
      const amount = q < 0 ? undefined : plainAmount(url.slice(q + 1));
      if (q >= 0 && amount === undefined) return undefined;
      const rates = market.current.rates;
      return { route: RATE_ROUTE, endpoint: 'rate', kept: false, answer: () => rateAnswer(rates, utcDay(at), path.slice(9, 12), path.slice(13, 16), amount) };
    }
    // /v1/USD/2020-06-15 once history has settled after a first start (before, Fastify's gate decides).
    if (q < 0 && datedPath(path) && (historyLoaded?.settled ?? true)) {
      return { route: HISTORY_DAY_ROUTE, endpoint: 'history', kept: true, answer: () => dayAnswer(history, utcDay(at), path.slice(4, 7), path.slice(8), undefined) };
    }
    return undefined;
  }

  /** Serves the request and returns true, or returns false at once for Fastify to serve it. */
  take(req: IncomingMessage, res: ServerResponse, fastify: Handler): boolean {
    if (req.method !== 'GET' || req.headers.origin !== undefined || req.headers['if-none-match'] !== undefined) return false;
    const url = req.url!;
    const at = this.parts.now();
    const matched = this.match(url, at);
    if (!matched) return false;
    const key = req.headers.authorization;
    if (typeof key !== 'string') return false;
    const hash = this.hashOf(req.socket, key);
    if (hash === undefined) return false;
    // A key not in the cache is looked up by Fastify's path (a concurrent lookup shares the query).
    const found = this.parts.keys.lookup(hash);
    if (found === undefined || found instanceof Promise) return false;
    const { account, plan } = found;
    // Any refusal (expired, not in the plan) is Fastify's to answer, from the same step (charged.ts).
    if (refusalOf(found, matched.endpoint, at)) return false;
    const { limiter, admission } = this.parts;
    const cost = priceOf(this.parts.pointsCost, matched.endpoint);
    // A limit counted in the database (PostgreSQL) is Fastify's to ask; so is a zero-cost endpoint.
    if ((plan.requestsPerMinute !== null && !limiter.inMemory) || cost === 0) return false;
    if (!admission.enter()) return false;
    const started = performance.now();
    // The limit last of D2's checks: a request counts once, so Fastify's path is handed the decision.
    const limit = plan.requestsPerMinute === null ? undefined : (limiter.check(account.id, plan.requestsPerMinute, at.getTime()) as LimitDecision);
    const handOver = () => {
      admission.leave();
      if (limit) (req as Decided)[DECIDED] = limit;
      fastify(req, res);
    };
    // A failure in the lane's own code once the meter has answered (none is expected): the connection
    // is cut if nothing was sent; handing the request over again could charge it twice.
    const broke = (err: unknown) => {
      if (!res.headersSent) res.destroy();
      this.parts.onError(err);
    };
    // Anything but a 200 (a 429, a 422, a 404, a refused or failed charge) is Fastify's to answer.
    const charge = (answer: Answer) =>
      this.parts.meter.chargeThen(
        account.id,
        cost,
        (charged) => {
          try {
            if (!charged.ok) return handOver();
            admission.leave();
            this.send(res, answer, matched.kept, cost, charged.remaining, limit);
            this.account(found.keyId, account.id, matched, url, cost, charged.remaining, started, at);
          } catch (err) {
            broke(err);
          }
        },
        () => {
          try {
            handOver();
          } catch (err) {
            broke(err);
          }
        },
      );
    if (limit && !limit.ok) {
      handOver();
      return true;
    }
    let answer: Answer | Promise<Answer>;
    try {
      answer = matched.answer();
    } catch {
      handOver();
      return true;
    }
    if (answer instanceof Promise) answer.then(charge, handOver);
    else charge(answer);
    return true;
  }

  /** The 200 as Fastify's path writes it, through the same header steps (charged.ts). */
  private send(res: ServerResponse, answer: Answer, kept: boolean, cost: number, remaining: number, limit: LimitDecision | undefined): void {
    const { etag } = answer.body;
    const body = kept ? bytesOf(answer.body) : answer.body.body;
    const headers: string[] = [];
    const put = (name: string, value: string) => void headers.push(name, value);
    // The same steps as Fastify's path (charged.ts): limit fields, validators, points.
    if (this.parts.corsOrigins !== '*') put('vary', 'Origin');
    if (limit) putLimit(put, limit);
    putValidators(put, etag, answer.lastUpdate);
    putPoints(put, cost, remaining);
    put('content-type', JSON_TYPE);
    if (this.parts.admission.closing) put('connection', 'close');
    headers.push('content-length', String(Buffer.byteLength(body)));
    res.writeHead(200, headers);
    res.end(body);
  }

  /** What Fastify's onResponse hooks and request log do for a charged 200. */
  private account(keyId: string, accountId: string, matched: Matched, url: string, cost: number, remaining: number, started: number, at: Date): void {
    const { balances, usage, stats, logLine, sampler } = this.parts;
    const ms = performance.now() - started;
    balances.saw(accountId, remaining);
    // Counted on the day the request arrived (Fastify's path: the day it was answered, a few ms later).
    usage.record(accountId, keyId, at, cost);
    stats.record('GET', matched.route, 200, ms / 1000);
    stats.charged(matched.endpoint, cost);
    stats.servedByFastLane();
    // The same line as RequestLog's: the lane takes no URL with a key in it, so none needs redacting.
    if (logLine) {
      const weight = sampler.weight(200, ms);
      if (weight > 0) logLine(requestLine(randomUUID(), 'GET', url, 200, Math.round(ms * 10) / 10, Date.now(), weight));
    }
  }
}

/** What Fastify's own HTTP/1 server would be (fastify/lib/server.js), with the lane in front. */
export function laneServer(options: { http?: ServerOptions; keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; maxRequestsPerSocket?: number }, lane: () => FastLane | undefined, fastify: Handler): Server {
  const server = createServer(options.http ?? {}, (req, res) => {
    if (!lane()?.take(req, res, fastify)) fastify(req, res);
  });
  server.keepAliveTimeout = options.keepAliveTimeout;
  server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}
