// Wire facts shared by every kind of answer: the JSON content type, and how a request's
// If-None-Match is compared with an answer's tag. Charged answers are sent by charged.ts.

export const JSON_TYPE = 'application/json; charset=utf-8';

/** RFC 9110 13.1.2: weak comparison, so `W/"x"` matches `"x"`; `*` matches any current body. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
