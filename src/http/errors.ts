// One error type and one envelope (D1). Handlers throw ApiError; everything else Fastify or Node
// raises is mapped here, so no client ever sees a stack trace or a framework's own error body.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const ERROR_STATUS = {
  bad_request: 400,
  invalid_key: 401,
  points_exhausted: 402,
  plan_expired: 402,
  plan_forbidden: 403,
  not_found: 404,
  no_fresh_rate: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  request_timeout: 408,
  unsupported_media_type: 415,
  invalid_parameter: 422,
  invalid_body: 422,
  rate_limited: 429,
  header_too_large: 431,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  /** A 422 naming one or more fields; the first problem is the message. */
  static invalid(code: 'invalid_parameter' | 'invalid_body', details: FieldProblem[]): ApiError {
    const first = details[0]!;
    return new ApiError(code, `${first.field} ${first.message}`, details);
  }
}

export function envelope(err: ApiError): string {
  const body: Record<string, unknown> = { code: err.status, message: err.message, error: err.code };
  if (err.details) body.details = err.details;
  return JSON.stringify(body);
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  if (err.headers) reply.headers(err.headers);
  return reply.code(err.status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(envelope(err));
}

type AjvError = { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> };

/** `/targets/3` → `targets[3]`; the root of a body is `body`. */
function fieldName(path: string, context: string | undefined): string {
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) return context === 'body' ? 'body' : (context ?? 'request');
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** "an array", "an integer", "an object"; "a string", "a number". */
const article = (noun: string) => (/^[aeiou]/.test(noun) ? 'an' : 'a');

function describe(e: AjvError, context: string | undefined): FieldProblem {
  if (e.keyword === 'required') return { field: String(e.params.missingProperty), message: 'is required' };
  const field = fieldName(e.instancePath, context);
  switch (e.keyword) {
    case 'type':
      if (field === 'body') return { field, message: 'must be a JSON object' };
      if (e.params.type === 'string' && context === 'querystring') return { field, message: 'must be given once, as a single value' };
      return { field, message: `must be ${article(String(e.params.type))} ${e.params.type}` };
    case 'additionalProperties':
      // Like an unknown query parameter (D17): a misspelt field must not be silently ignored. The
      // problem is the body's (the admin API's contract since D12); the message names the field.
      return { field, message: `has no field "${String(e.params.additionalProperty)}"` };
    case 'minItems':
      return { field, message: 'must not be empty' };
    case 'maxItems':
      return { field, message: `must hold at most ${e.params.limit} items` };
    case 'maxLength':
      return { field, message: `must be at most ${e.params.limit} characters` };
    case 'anyOf':
      return { field, message: 'must be a positive number' };
    default:
      return { field, message: e.message ?? 'is invalid' };
  }
}

const bodyProblem = (message: string) => ApiError.invalid('invalid_body', [{ field: 'body', message: message.replace(/^body /, '') }]);

/** Framework errors by Fastify code, mapped onto D1. */
const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'request body must be application/json'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_body', 'body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_body', 'body is empty; send a JSON object'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['bad_request', 'Content-Length does not match the body'],
  FST_ERR_BAD_URL: ['bad_request', 'the URL has an invalid percent-encoding'],
};

export function toApiError(err: FastifyError & { validationContext?: string }): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err.validation) {
    const code = err.validationContext === 'body' ? 'invalid_body' : 'invalid_parameter';
    const seen = new Set<string>();
    const details = (err.validation as AjvError[])
      .map((e) => describe(e, err.validationContext))
      .filter((d) => !seen.has(d.field) && seen.add(d.field));
    return ApiError.invalid(code, details);
  }
  // The router refuses path segments over its length limit before any route can say 422 (D4).
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return ApiError.invalid('invalid_parameter', [{ field: 'path', message: 'has a segment that is too long' }]);
  const known = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (known) return known[0] === 'invalid_body' ? bodyProblem(known[1]) : new ApiError(known[0], known[1]);
  // Body parsing failures (prototype poisoning, bad JSON from a custom parser) are 400 inside Fastify.
  if (err instanceof SyntaxError || (err.statusCode === 400 && /body|json|proto/i.test(err.message))) {
    return bodyProblem('body is not valid JSON');
  }
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) return new ApiError('bad_request', 'malformed request');
  return undefined;
}

export function installErrorHandling(app: FastifyInstance, allowedMethods: (url: string) => string[]): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toApiError(err);
    if (mapped) return sendError(reply, mapped);
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, new ApiError('internal', 'internal error'));
  });
  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedMethods(request.url.split('?')[0]!);
    if (allowed.length > 0) {
      return sendError(reply, new ApiError('method_not_allowed', `method ${request.method} is not allowed here; use ${allowed.join(', ')}`, undefined, { allow: allowed.join(', ') }));
    }
    return sendError(reply, new ApiError('not_found', `no such endpoint: ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}`));
  });
}
