// Publications a source has missed by its own schedule: how `kurs sources` tells a quiet weekend
// from a broken feed.
import type { Source } from '../sources/types.js';
import type { SourceHealth } from '../store/store.js';
import { DAY_MS, isWeekend } from '../time/days.js';


/**
 * Publications expected after `newestDate` up to `now`: business days (Mon–Fri) for daily sources,
 * whole weeks for weekly ones, whole months for monthly ones, whole quarters for quarterly ones.
 * Holidays are not known here, so a holiday counts as one missed publication until the next figure lands.
 */
export function missedPublications(source: Pick<Source, 'cadence' | 'publishedAtUtc'>, newestDate: string | null, now: Date): number | null {
  if (newestDate === null) return null;
  const newest = Date.parse(`${newestDate}T00:00:00Z`);
  const publishedToday = now.toISOString().slice(11, 19) >= source.publishedAtUtc;
  const today = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  if (source.cadence === 'weekly') return Math.max(0, Math.floor((today - newest) / (7 * DAY_MS)));
  if (source.cadence === 'monthly' || source.cadence === 'quarterly') {
    const a = new Date(newest);
    const months = (now.getUTCFullYear() - a.getUTCFullYear()) * 12 + now.getUTCMonth() - a.getUTCMonth();
    if (source.cadence === 'monthly') return Math.max(0, months - 1);
    const quarters = (now.getUTCFullYear() - a.getUTCFullYear()) * 4 + Math.floor(now.getUTCMonth() / 3) - Math.floor(a.getUTCMonth() / 3);
    return Math.max(0, quarters - 1);
  }
  let missed = 0;
  for (let day = newest + DAY_MS; day <= today; day += DAY_MS) {
    if (isWeekend(day)) continue;
    if (day === today && !publishedToday) continue;
    missed++;
  }
  return missed;
}

/** One source's health as `kurs sources`, `/status` and `/metrics` show it. */
export interface SourceStatus {
  source: string;
  name: string;
  cadence: Source['cadence'];
  /** Period rates (D21): judged by `newest_valid_to`, the end of the newest period held. */
  period_rates: boolean;
  schedule: string;
  feed_url: string;
  terms_url: string;
  terms: Source['terms'];
  newest_observation: string | null;
  newest_valid_to: string | null;
  missed_publications: number | null;
  /** The last real fetch or import that succeeded; null when there was none. */
  last_success: string | null;
  /** Figures are held but none came from a fetch or import: they are the bundled seed's. */
  seeded: boolean;
  last_error_at: string | null;
  last_error: string | null;
  failing: boolean;
  rejections: number;
}

export function sourceStatuses(sources: readonly Source[], health: readonly SourceHealth[], now: Date): SourceStatus[] {
  const byCode = new Map(health.map((h) => [h.source, h]));
  return sources.map((s) => {
    const h = byCode.get(s.code);
    return {
      source: s.code, name: s.name, cadence: s.cadence, period_rates: s.periodRates === true, schedule: s.schedule, feed_url: s.feedUrl, terms_url: s.termsUrl, terms: s.terms,
      newest_observation: h?.newestDate ?? null, newest_valid_to: h?.newestValidTo ?? null, missed_publications: missedPublications(s, h?.newestDate ?? null, now),
      last_success: h?.lastSuccessAt ?? null, seeded: (h?.lastSuccessAt ?? null) === null && (h?.newestDate ?? null) !== null, last_error_at: h?.lastErrorAt ?? null, last_error: h?.lastError ?? null,
      failing: (h?.failures ?? 0) > 0, rejections: h?.rejections ?? 0,
    };
  });
}

/** "Last success" as a person reads it: the time to the minute (date and time joined by `sep`), or
 *  why there is none. */
export function lastSuccessText(s: Pick<SourceStatus, 'last_success' | 'seeded'>, sep = 'T'): string {
  return s.last_success?.slice(0, 16).replace('T', sep) ?? (s.seeded ? 'seeded' : 'never fetched');
}
