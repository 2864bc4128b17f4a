// Request logs: one `info` line per answered request, written to stdout in batches. Written line by
// line, as pino does by default, each line was a write(2) of its own: about a tenth of a charged
// request's CPU (docs/performance.md). Batched, a line reaches stdout at most LOG_FLUSH_MS late, or
// sooner once LOG_BATCH_LINES are waiting. Every exit that runs 'exit' handlers (SIGTERM and SIGINT
// shut down through process.exit, and an uncaught error) writes what is left, so only a SIGKILL or
// a power cut can lose lines: at most the last second's.
import { hostname } from 'node:os';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** A batch is written once this many lines wait (about 40 KB of request lines: one write(2) per
 *  batch, and at 64 lines the writes were still ~1 µs of a charged GET)… */
export const LOG_BATCH_LINES = 256;
/** …or after this long, so that a quiet server's lines still appear within a second. */
export const LOG_FLUSH_MS = 1_000;

/** Request logs never show keys: `api_key` in the query is redacted and headers are not logged (D3). */
export const redactedUrl = (url: string) => (url.includes('?') ? url.replace(/([?&]api_key=)[^&]*/gi, '$1[redacted]') : url);

/** Room for a batch: 256 request lines are ~43 KB. */
export const LOG_BUFFER_BYTES = 64 * 1024;

/** A pino destination that gathers lines in one buffer and writes them in one call (stdout on Linux
 *  writes files and pipes synchronously, so what is handed over is out of the process). Each line
 *  is copied into the buffer as it comes: kept as strings until the batch was full (~40 ms under
 *  load), lines outlived two young-generation collections and were copied into the old one, and
 *  that was most of what filled it between full collections (docs/performance.md, seventh round). */
export class BatchedLines {
  private readonly buffer = Buffer.allocUnsafe(LOG_BUFFER_BYTES);
  private used = 0;
  private lines = 0;

  constructor(private readonly out: { write(chunk: Buffer | string): unknown } = process.stdout) {
    setInterval(() => this.flush(), LOG_FLUSH_MS).unref();
    process.once('exit', () => this.flush());
  }

  write(line: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8: a line that might not fit goes after what waits.
    if (this.used + line.length * 3 > this.buffer.length) {
      this.flush();
      if (line.length * 3 > this.buffer.length) {
        this.out.write(line);
        return;
      }
    }
    this.used += this.buffer.write(line, this.used, 'utf8');
    if (++this.lines >= LOG_BATCH_LINES) this.flush();
  }

  flush(): void {
    if (this.used === 0) return;
    // A copy: the buffer is filled again at once, and a stream may keep what it is given.
    const chunk = Buffer.from(this.buffer.subarray(0, this.used));
    this.used = 0;
    this.lines = 0;
    this.out.write(chunk);
  }
}

/** A request that took this long always gets its line, whatever the sampling. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * Which answered requests get a request line (KURS_LOG_SAMPLE; docs/operations.md, "Logs"): every
 * error (status 400 and up) and every slow request, and 1 in `every` of the rest. At `info` a line
 * for each of those cost about 3% of a charged GET's throughput, for lines that tell an operator
 * little one by one: /metrics counts every request and /v1/usage every charge. One counter for the
 * whole process, so the Fastify path and the fast lane sample the same way.
 */
export class RequestSampler {
  private skipped = 0;

  constructor(readonly every: number) {}

  /** 0: no line; 1: a line for this request alone; more: a line standing for that many requests,
   *  written with `"sample":n` so that counts taken from the log can be scaled back up. */
  weight(status: number, ms: number): number {
    if (this.every === 1 || status >= 400 || ms >= SLOW_REQUEST_MS) return 1;
    if (++this.skipped < this.every) return 0;
    this.skipped = 0;
    return this.every;
  }
}

/**
 * One `info` line per request, when it is answered (Fastify writes two: received and completed):
 * its id, method, redacted URL, status and time, sampled by RequestSampler. Fastify's error lines
 * stay as they are.
 */
export class RequestLog extends LogController {
  /** The level is fixed at boot: above `info` a successful request costs no log work at all. */
  constructor(
    private readonly infoEnabled: boolean,
    private readonly sampler = new RequestSampler(1),
  ) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && !this.infoEnabled) return;
    const line = { method: request.method, url: redactedUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) return reply.log.error({ ...line, err: error }, 'request errored');
    const weight = this.sampler.weight(reply.statusCode, reply.elapsedTime);
    if (weight === 1) reply.log.info(line, 'request');
    else if (weight > 1) reply.log.info({ ...line, sample: weight }, 'request');
  }
}

const LINE_HEAD = `{"level":30,"time":`;
const LINE_BASE = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":"`;

/**
 * The line pino writes for RequestLog's `info` on a Fastify request, as text, for the fast lane
 * (fast-lane.ts): pino's generic serialisation of the line was ~1.5 µs of a ~25 µs request. The
 * fields are known and plain (a UUID, a URL the lane checked to be letters, digits, dots and
 * slashes, numbers), so nothing needs escaping beyond JSON.stringify of the URL;
 * request-log.test.ts checks the text against pino's own line.
 */
export function requestLine(reqId: string, method: string, url: string, status: number, ms: number, time = Date.now(), sample = 1): string {
  const weight = sample > 1 ? `,"sample":${sample}` : '';
  return `${LINE_HEAD}${time}${LINE_BASE}${reqId}","method":"${method}","url":${JSON.stringify(url)},"status":${status},"ms":${ms}${weight},"msg":"request"}\n`;
}
