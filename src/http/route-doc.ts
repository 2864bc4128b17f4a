// How a route is described in the OpenAPI document: the public table (openapi.ts) and the admin
// table (openapi-admin.ts) both fill it, and neither imports the other for it.
import type { TSchema } from '@sinclair/typebox';

export interface RouteDoc {
  summary: string;
  description?: string;
  tag: 'rates' | 'banks' | 'account' | 'service' | 'admin';
  ok: TSchema | { content: Record<string, { schema: TSchema }> };
  /** The success status; 200 unless the route creates something. */
  okStatus?: 200 | 201;
  /** Needs a key: adds the auth errors, the points headers and the security requirement. */
  keyed?: boolean;
  /** A keyed route that every plan includes and that costs 0 points: no 403, no charge. */
  free?: boolean;
  /** Needs the admin token (Bearer): adds the 401 with WWW-Authenticate and the security requirement. */
  admin?: boolean;
  /** A cacheable GET: adds ETag, Last-Modified and the 304. */
  cached?: boolean;
  errors?: number[];
  /** Wording for a status where the shared one (ERRORS) does not fit this route. */
  errorText?: Record<number, string>;
  /** Headers on the success response. */
  okHeaders?: Record<string, unknown>;
  /** An example request body. */
  bodyExample?: Record<string, unknown>;
  /** Descriptions and examples for path, query and body fields. */
  fields?: Record<string, { description: string; example: unknown }>;
}
