// The steps of a charged answer (charged.ts) run on node:http directly, for the requests the fast
// lane (fast-lane.ts) recognises by their URL: no routing, no hooks, no reply object. Anything but a
// plain 200 is handed to Fastify's path, which answers it from the same steps.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Balances } from '../access/balances.js';
import type { KeyCache } from '../access/key-cache.js';
import { DECIDED, type Decided, type LimitDecision, type RequestLimiter } from '../access/rate-limit.js';
import type { UsageRecorder } from '../access/usage.js';
import type { EndpointId } from '../config.js';
import type { KeyLookup } from '../store/store.js';
import type { Answer, Written } from './answers.js';
import type { Entity } from './bodies/entity.js';
import { chargeThen, type Charging, PRIVATE, priceOf, putLimit, putPoints, putValidators, refusalOf, settle } from './charged.js';
import type { CorsOrigins } from './cors.js';
import type { Admission } from './limits.js';
import { JSON_TYPE } from './reply.js';
import { requestLine, type RequestSampler } from './request-log.js';
import type { RequestStats } from './request-stats.js';

/** What a charged answer on node:http needs of the app (app.ts builds it once). */
export interface DirectParts extends Charging {
  keys: KeyCache;
  limiter: RequestLimiter;
  balances: Balances;
  usage: UsageRecorder;
  stats: RequestStats;
  admission: Admission;
  corsOrigins: CorsOrigins;
  /** Where request lines go (the app's log stream) when they are logged at all (`info` or below). */
  logLine: ((line: string) => void) | undefined;
  /** Which requests get a line (shared with Fastify's RequestLog). */
  sampler: RequestSampler;
  /** A failure after the charge (none is expected): logged, and the connection cut if nothing was sent. */
  onError: (err: unknown) => void;
}

/** A request the fast lane recognised by its URL: its route, endpoint and answer (which throws to hand over). */
export interface Matched {
  route: string;
  endpoint: EndpointId;
  answer: () => AnyAnswer | Promise<AnyAnswer>;
  /** Whether the answer's body is kept with its table (so worth keeping as bytes). */
  kept: boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type AnyAnswer = Answer<Entity | Written>;

/** The bytes of bodies kept with a table (/latest's, a day's), made once each: a 2.3 KB string was
 *  measured and encoded on every request. Module-level because it belongs to the bodies it is keyed
 *  by (a WeakMap entry goes with its body), not to any one server. */
const bytes = new WeakMap<object, Buffer>();
function bytesOf(entity: Entity | Written): Buffer {
  let b = bytes.get(entity);
  if (!b) bytes.set(entity, (b = Buffer.from(entity.body)));
  return b;
}

/**
 * The same steps on node:http, for a request whose answer is plainly a 200: a key already verified
 * in the key cache, its checks passed, its limit counted in memory. Anything else (a key to look
 * up, a refusal, a short balance, a failed charge, an answer that throws) is handed to Fastify's
 * path, which answers it from the same steps.
 */
export class ChargedAnswers {
  constructor(private readonly parts: DirectParts) {}

  /** Serves `matched` and returns true, or returns false at once for Fastify to serve the request. */
  serve(req: IncomingMessage, res: ServerResponse, matched: Matched, at: Date, fastify: Handler): boolean {
    const url = req.url!;
    const key = req.headers.authorization;
    if (typeof key !== 'string') return false;
    // Step 1 of D2, the key, as Fastify's path takes it (auth.ts); one not in the cache is looked up
    // by Fastify's path (a concurrent lookup shares the query).
    const found = this.parts.keys.lookupKey(key, req.socket);
    if (found === undefined || found instanceof Promise) return false;
    const { account, plan } = found;
    // Step 2: any refusal (expired, not in the plan) is Fastify's to answer.
    if (refusalOf(found, matched.endpoint, at)) return false;
    const { limiter, admission } = this.parts;
    const cost = priceOf(this.parts.pointsCost, matched.endpoint);
    // A limit counted in the database (PostgreSQL) is Fastify's to ask; so is a zero-cost endpoint.
    if ((plan.requestsPerMinute !== null && !limiter.inMemory) || cost === 0) return false;
    // A conversion's place was taken while its body came (fast-lane.ts): it keeps it.
    if (!admission.resume(req) && !admission.enter()) return false;
    const started = performance.now();
    // The limit last of D2's checks: a request counts once, so Fastify's path is handed the decision.
    const limit = plan.requestsPerMinute === null ? undefined : (limiter.check(account.id, plan.requestsPerMinute, at.getTime()) as LimitDecision);
    // Fastify's path takes the request over with its place (limits.ts), as it does the limit's decision.
    const handOver = () => {
      admission.hold(req, res);
      if (limit) (req as Decided)[DECIDED] = limit;
      fastify(req, res);
    };
    // A failure once the meter has answered (none is expected): the connection is cut if nothing was
    // sent; handing the request over again could charge it twice.
    const broke = (err: unknown) => {
      if (!res.headersSent) res.destroy();
      this.parts.onError(err);
    };
    const fallback = () => {
      try {
        handOver();
      } catch (err) {
        broke(err);
      }
    };
    // Step 3; a short balance or a failed meter is Fastify's to answer (it charges again, and refuses).
    const charge = (answer: AnyAnswer) =>
      chargeThen(
        this.parts.meter,
        account.id,
        cost,
        (remaining) => {
          try {
            admission.leave();
            this.send(res, answer, matched.kept, cost, remaining, limit);
            this.parts.balances.saw(account.id, remaining);
            this.settled(req.method!, found, matched, url, cost, started, at);
          } catch (err) {
            broke(err);
          }
        },
        fallback,
        fallback,
      );
    if (limit && !limit.ok) {
      handOver();
      return true;
    }
    let answer: AnyAnswer | Promise<AnyAnswer>;
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

  /** Step 4: the 200 with the same headers as Fastify's path writes. */
  private send(res: ServerResponse, answer: AnyAnswer, kept: boolean, cost: number, remaining: number, limit: LimitDecision | undefined): void {
    const { etag } = answer.body;
    const body = kept ? bytesOf(answer.body) : answer.body.body;
    const headers: string[] = [];
    const put = (name: string, value: string) => void headers.push(name, value);
    if (this.parts.corsOrigins !== '*') put('vary', 'Origin');
    if (limit) putLimit(put, limit);
    putValidators(put, etag, answer.lastUpdate);
    // An answer without a tag (a POST's) is private, as installPointsHeaders makes it on Fastify's path.
    if (!etag) put('cache-control', PRIVATE);
    putPoints(put, cost, remaining);
    put('content-type', JSON_TYPE);
    if (this.parts.admission.closing) put('connection', 'close');
    headers.push('content-length', String(Buffer.byteLength(body)));
    res.writeHead(200, headers);
    res.end(body);
  }

  /** Step 5, and the request line Fastify's RequestLog would write. */
  private settled(method: string, found: KeyLookup, matched: Matched, url: string, cost: number, started: number, at: Date): void {
    const { usage, stats, logLine, sampler } = this.parts;
    const ms = performance.now() - started;
    // Counted on the day the request arrived (Fastify's path: the day it was answered, a few ms later).
    settle(usage, stats, method, matched.route, 200, ms / 1000, found, matched.endpoint, cost, () => at);
    stats.servedByFastLane();
    // The lane takes no URL with a key in it, so none needs redacting.
    if (logLine) {
      const weight = sampler.weight(200, ms);
      if (weight > 0) logLine(requestLine(randomUUID(), method, url, 200, Math.round(ms * 10) / 10, Date.now(), weight));
    }
  }
}
