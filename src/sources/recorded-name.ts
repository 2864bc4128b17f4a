// Recorded copies of a feed carry the day they were saved: `eurofxref-hist-2026-04-13.zip` or
// `eurofxref-hist.2026-04-13.zip` for `eurofxref-hist.zip` (CONTRIBUTING.md, "Recorded copies").
// Every adapter takes them through this one rule instead of each learning the stamp.
import type { Source } from './types.js';

// A `-` or `.` and an ISO date, right before the last extension or at the end of the name.
const STAMP = /[-.]\d{4}-\d{2}-\d{2}(?=(\.[A-Za-z0-9]+)?$)/;

/** The feed's own file name for a recorded copy (the name unchanged when it carries no stamp). */
export function withoutStamp(name: string): string {
  return name.replace(STAMP, '');
}

/** The name under which `source` reads this file, or undefined when it does not read it at all. An
 *  adapter that knows the stamped name (ECBF lists its recordings) keeps it. */
export function acceptedName(source: Source, name: string): string | undefined {
  if (source.accepts(name)) return name;
  const plain = withoutStamp(name);
  return plain !== name && source.accepts(plain) ? plain : undefined;
}
