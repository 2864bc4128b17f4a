// The one error the client throws for an answer that is not 2xx (DESIGN D1), and for a request that
// never got an answer (`status` 0: network failure, timeout or abort).

export interface FieldProblem {
  field: string;
  message: string;
}

export class KursError extends Error {
  override readonly name = 'KursError';
  constructor(
    /** The HTTP status; 0 when no answer arrived. */
    readonly status: number,
    /** The D1 code (`invalid_key`, `points_exhausted`, `no_fresh_rate` …); `network`, `timeout` or `aborted` without an answer. */
    readonly error: string,
    message: string,
    /** 422 only: each bad field. */
    readonly details: FieldProblem[] = [],
    /** `X-Points-Remaining` of the answer, when the key was valid. */
    readonly pointsRemaining?: number,
    /** Seconds from `Retry-After` on 429 and 503. */
    readonly retryAfter?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
