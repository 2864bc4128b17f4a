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
