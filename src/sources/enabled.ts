// Which sources an instance uses (D22). Kurs sells access, so a source whose terms forbid
// commercial use is off unless the operator names it in KURS_ENABLE_SOURCES: not fetched, not
// ingested, not blended, not listed. Built once at boot from the configuration and passed in.
import { ConfigError } from '../config.js';
import type { Source, Terms } from './types.js';

/** Terms that keep a source off by default; `permission-required` and `unknown` are shown, not enforced. */
export const OFF_BY_DEFAULT: readonly Terms[] = ['non-commercial', 'personal-use'];

export const offByDefault = (source: Pick<Source, 'terms'>): boolean => OFF_BY_DEFAULT.includes(source.terms);

/** The sources of `all` this instance uses: those on by default and those `named`; a named code
 *  that is no source stops the boot with the list of codes. */
export function enabledSources(all: readonly Source[], named: readonly string[]): Source[] {
  const unknown = named.filter((code) => !all.some((s) => s.code === code));
  if (unknown.length > 0) {
    throw new ConfigError([`KURS_ENABLE_SOURCES names ${unknown.join(', ')}: no such source; the sources are ${all.map((s) => s.code).join(', ')}`]);
  }
  return all.filter((s) => !offByDefault(s) || named.includes(s.code));
}

/** Why a registered source is not served here, and how an operator turns it on. */
export const offMessage = (source: Pick<Source, 'code' | 'terms' | 'termsUrl'>): string =>
  `${source.code} is off on this server: its terms (${source.terms}, ${source.termsUrl}) do not allow commercial use; an operator entitled to use it turns it on with KURS_ENABLE_SOURCES=${source.code}`;
