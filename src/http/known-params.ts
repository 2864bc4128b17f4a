// D17: a query parameter a /v1 endpoint does not know is 422, never silently ignored (`dat=` must
// not answer "now"). Each route's known names are read once, when it is registered, from the
// querystring schema its OpenAPI entry is generated from; new routes are covered by declaring theirs.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError, type FieldProblem } from './errors.js';

/** Accepted on every endpoint: the key (D3) and the cache-buster browser libraries append. */
export const ALWAYS_KNOWN = ['api_key', '_'] as const;

type SchemaLike = { properties?: Record<string, unknown>; allOf?: SchemaLike[]; anyOf?: SchemaLike[]; oneOf?: SchemaLike[] };

/** Property names of an object schema, through the combinators TypeBox builds (Intersect, Union). */
export function schemaProperties(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as SchemaLike;
  return [...Object.keys(s.properties ?? {}), ...[...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap(schemaProperties)];
}

type Done = (err?: Error) => void;

/** The check for one route. Callback style, and nothing is allocated unless a name is unknown: it
 *  runs on every request. */
export function unknownParamCheck(known: ReadonlySet<string>) {
  const accepted = [...known].filter((k) => !(ALWAYS_KNOWN as readonly string[]).includes(k)).sort();
  const hint = accepted.length > 0 ? `is not a parameter of this endpoint; it accepts ${accepted.join(', ')}` : 'is not a parameter of this endpoint; it takes none';
  return (request: FastifyRequest, _reply: FastifyReply, done: Done): void => {
    const query = request.query as Record<string, unknown>;
    for (const name in query) {
      if (!known.has(name)) return done(unknownError(query, known, hint));
    }
    done();
  };
}

function unknownError(query: Record<string, unknown>, known: ReadonlySet<string>, hint: string): ApiError {
  const details: FieldProblem[] = [];
  for (const name in query) if (!known.has(name)) details.push({ field: name, message: hint });
  return ApiError.invalid('invalid_parameter', details);
}

/** Adds the check to every route registered in `scope` from now on (call it before the routes).
 *  A preValidation hook: after the key, plan and rate-limit checks of onRequest (D2), before the
 *  schema's own 422s, so a misspelt name is reported as such. */
export function installKnownParams(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    const querystring = (route.schema as { querystring?: unknown } | undefined)?.querystring;
    const known = new Set<string>([...ALWAYS_KNOWN, ...schemaProperties(querystring)]);
    const check = unknownParamCheck(known);
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? check : [check, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
