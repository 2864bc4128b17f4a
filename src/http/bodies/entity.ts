// A serialized response body with its entity tag. Where a body is cached (per table and base, per
// bank variant, the bank and currency lists) the tag is hashed once with it, not on every request.
import { createHash } from 'node:crypto';

export interface Entity {
  readonly body: string;
  /** A strong validator: same bytes, same tag (RFC 9110 8.8.3). */
  readonly etag: string;
}

export function digest(text: string | Buffer): string {
  return createHash('sha1').update(text).digest('base64url');
}

export function entityTag(body: string | Buffer): string {
  return `"${digest(body)}"`;
}

export const entity = (body: string): Entity => ({ body, etag: entityTag(body) });

/** The success envelope (D1), defined here and nowhere else; the error envelope is envelope() in
 *  src/http/errors.ts. okWith() is a 200's object, `code` and `message` first, with the answer's
 *  fields after (a few answers say more than `success`: `/`, /healthz, /readyz, /v1/usage);
 *  successOf() is the usual one, for money/json's stringify; SUCCESS_OPEN its start, for bodies
 *  written as text or bytes (then `,` and the answer's fields, then `}`); success() the whole of one
 *  such body. */
export const okWith = <T extends object>(message: string, fields?: T) => ({ code: 200 as const, message, ...fields }) as { code: 200; message: string } & T;
export const successOf = <T extends object>(fields: T) => okWith('success', fields);
export const SUCCESS_OPEN = JSON.stringify(okWith('success')).slice(0, -1);
export const success = (fields: string): string => `${SUCCESS_OPEN},${fields}}`;
