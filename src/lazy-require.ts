// A CommonJS package loaded the first time it is used rather than when its importer loads: what
// only some starts need (PostgreSQL's driver, the npm undici for a few sources' TLS) is then no part
// of every start's module loading. `require` loads it synchronously, where it is needed.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter for `specifier`, required at its first call and the same module after (as an import's). */
export function requiredOnFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
