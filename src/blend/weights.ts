// Two facts about a figure that its weight uses (model.ts): how coarsely it was rounded, and whether
// its source issues the currency. The weights themselves are inverse variances of the market model.
import { ISSUER_OF } from './fixing.js';
import type { Contribution } from './rebase.js';

/** Half a unit in the last published digit, relative to the figure: `0.391` is known to ±0.13%. */
export function roundingError(published: string): number {
  const point = published.indexOf('.');
  const places = point < 0 ? 0 : published.length - point - 1;
  return (0.5 * 10 ** -places) / Number(published);
}

/** Whether the source is the currency's issuer: its base currency, or listed in ISSUER_OF. */
export const isIssuer = (c: Pick<Contribution, 'source' | 'currency'>, base: string | undefined): boolean =>
  ISSUER_OF[c.currency] === undefined ? base === c.currency : ISSUER_OF[c.currency] === c.source;
