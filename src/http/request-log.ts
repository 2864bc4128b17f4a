// Request logs: one `info` line per answered request, written to stdout in batches. Written line by
// line, as pino does by default, each line was a synchronous write(2): about a tenth of a charged
// request's CPU (docs/performance.md). Batched, lines reach stdout at most LOG_FLUSH_MS late, or
// sooner once LOG_BATCH_BYTES are waiting; a normal stop and an uncaught error flush what is left,
// so only a SIGKILL (or a power cut) can lose lines, at most the last second's.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';

/** A batch is written once this much is waiting (sonic-boom needs it below its 16 KB write size). */
export const LOG_BATCH_BYTES = 8 * 1024;
/** …or after this long, so that a quiet server's lines still appear within a second. */
export const LOG_FLUSH_MS = 1_000;

/** Request logs never show keys: `api_key` in the query is redacted and headers are not logged (D3). */
export const redactedUrl = (url: string) => url.replace(/([?&]api_key=)[^&]*/gi, '$1[redacted]');

/** stdout, batched. pino flushes an asynchronous destination when the process exits. */
export function batchedStdout(): pino.DestinationStream & { flushSync(): void } {
  return pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS });
}

/**
 * One `info` line per request, when it is answered (Fastify writes two: received and completed):
 * its id, method, redacted URL, status and time. Fastify's error lines stay as they are.
 */
export class RequestLog extends LogController {
  /** The level is fixed at boot: above `info` a successful request costs no log work at all. */
  constructor(private readonly infoEnabled: boolean) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && !this.infoEnabled) return;
    const line = { method: request.method, url: redactedUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
