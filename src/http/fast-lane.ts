// The fast lane: a URL matcher in front of the charged answer (charged.ts) for the hottest requests,
// a charged GET of /v1/{base}/latest, /v1/rate/{base}/{target} (at most `?amount=`) or
// /v1/{base}/{date}, with no Origin and no If-None-Match, and a POST /v1/rates/convert of today
// whose JSON body is plainly valid (read here, and handed to Fastify with its request if need be).
// Fastify's lifecycle (a Request, a Reply, a child logger, hooks in four phases) cost more than half
// of such a request's CPU on top of a bare server (docs/performance.md); a matched request goes
// straight to `ChargedAnswers.serve`, which runs the same steps as Fastify's path and hands anything
// but a plain 200 back to Fastify. The lane changes no answer, which test/fast-lane.test.ts checks
// byte for byte against the same requests with the lane off.
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { History } from '../history/history.js';
import type { HistoryReadiness } from '../ingest/seed-history.js';
import type { Market } from '../rates/market.js';
import { utcDay } from '../time/days.js';
import { AMOUNT_CHARS, CONVERT_ROUTE, convertAnswer, type ConvertInput, type Converted, dayAnswer, HISTORY_DAY_ROUTE, FIELD_CHARS, LATEST_ROUTE, latestAnswer, MAX_TARGETS, RATE_ROUTE, rateAnswer } from './answers.js';
import { type Admission, BODY_LIMIT, SWEEP_MS } from './limits.js';
import type { ChargedAnswers, Matched } from './charged-node.js';
import { parseFlatJson } from './flat-json.js';
import { keepBody } from './replay.js';
import { cutStalledWriters } from './stalled.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface LaneParts {
  market: Market;
  history: History;
  /** Whether the seed's history has loaded (absent: it has); dated requests wait for it. */
  historyLoaded: HistoryReadiness | undefined;
  now: () => Date;
  charged: ChargedAnswers;
  /** The cap on requests in flight (limits.ts), which a conversion's body counts against while it comes. */
  admission: Admission;
  /** A failure the lane did not expect, after it took a request: logged, the connection cut. */
  onError: (err: unknown) => void;
}

/** The content types whose bodies the lane reads (Fastify's JSON parser takes these and more). */
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

/** A conversion body with only `base`, `targets` and `amount`, each of the type and length the
 *  route's schema asks (routes/rates.ts), or undefined: then Fastify's path checks it and answers.
 *  Nothing here is coerced, so what passes is exactly what the schema would pass on unchanged. */
function plainConversion(v: Record<string, unknown> | undefined): ConvertInput | undefined {
  if (v === undefined) return undefined;
  const { base, amount, targets } = v;
  if (Object.keys(v).length !== (amount === undefined ? 2 : 3)) return undefined;
  // Lengths in UTF-16 units: never more code points than the schema counts, so never more lenient.
  if (typeof base !== 'string' || base.length > FIELD_CHARS) return undefined;
  if (amount !== undefined && typeof amount !== 'number' && !(typeof amount === 'string' && amount.length <= AMOUNT_CHARS)) return undefined;
  if (!Array.isArray(targets) || targets.length < 1 || targets.length > MAX_TARGETS) return undefined;
  for (const t of targets) if (typeof t !== 'string' || t.length > FIELD_CHARS) return undefined;
  return { base, amount, targets: targets as string[] };
}

/** What `answer` throws to hand a request to Fastify's path (caught by ChargedAnswers.serve). */
const HAND_OVER = new Error('handed to Fastify');

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
  constructor(private readonly parts: LaneParts) {}

  /** The route a URL names, its endpoint and how to build its answer, or undefined for Fastify. */
  match(url: string, at: Date): Matched | undefined {
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
    if (req.method === 'POST' && req.headers.origin === undefined) return this.takeConversion(req, res, fastify);
    if (req.method !== 'GET' || req.headers.origin !== undefined || req.headers['if-none-match'] !== undefined) return false;
    const at = this.parts.now();
    const matched = this.match(req.url!, at);
    return matched !== undefined && this.parts.charged.serve(req, res, matched, at, fastify);
  }

  /** POST /v1/rates/convert with a JSON body of a stated length: its bytes are read here, then the
   *  request is served, or handed to Fastify with them (replay.ts), whose parser reads them again. */
  private takeConversion(req: IncomingMessage, res: ServerResponse, fastify: Handler): boolean {
    const length = Number(req.headers['content-length']);
    if (req.url !== CONVERT_ROUTE || !JSON_TYPES.has(req.headers['content-type'] ?? '') || !(length > 0 && length <= BODY_LIMIT)) return false;
    // A request whose body is coming counts against the cap on requests in flight, as on Fastify's
    // path (limits.ts), so clients that hold their bodies back cannot take every place. Its place is
    // held for it: serve() or Fastify's hook takes it over, or its response's close gives it back.
    const { admission } = this.parts;
    if (!admission.enter()) return false;
    admission.hold(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A client gone before its body ended: nothing was answered, nothing charged.
    req.on('error', () => res.destroy());
    req.on('end', () => {
      try {
        const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        keepBody(req, bytes);
        const at = this.parts.now();
        const matched: Matched = { route: CONVERT_ROUTE, endpoint: 'convert', kept: false, answer: () => conversionOf(this.parts, bytes, at) };
        if (!this.parts.charged.serve(req, res, matched, at, fastify)) fastify(req, res);
      } catch (err) {
        if (!res.headersSent) res.destroy();
        this.parts.onError(err);
      }
    });
    return true;
  }
}

/** A conversion of today from a body read in full: the answer, or HAND_OVER (a date, anything not
 *  plainly valid, or nothing converted, which costs nothing: D24) for Fastify's path to answer. */
function conversionOf(parts: LaneParts, bytes: Buffer, at: Date): Converted {
  const input = plainConversion(parseFlatJson(bytes));
  if (input === undefined) throw HAND_OVER;
  const answer = convertAnswer(parts.market.current.rates, parts.history, utcDay(at), input);
  if (answer instanceof Promise || answer.units === 0) throw HAND_OVER;
  return answer;
}

/** What Fastify's own HTTP/1 server would be (fastify/lib/server.js), with the lane in front; its
 *  connection deadline is a sweep (stalled.ts, D33), not Node's timer on every socket. */
export function laneServer(options: { http?: ServerOptions; keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; maxRequestsPerSocket?: number }, lane: () => FastLane | undefined, fastify: Handler): Server {
  const server = createServer(options.http ?? {}, (req, res) => {
    if (!lane()?.take(req, res, fastify)) fastify(req, res);
  });
  server.keepAliveTimeout = options.keepAliveTimeout;
  server.requestTimeout = options.requestTimeout;
  cutStalledWriters(server, options.connectionTimeout, SWEEP_MS);
  if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}
