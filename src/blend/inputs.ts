// What the blend is given: plain data about each source and its published figures. The blend owns
// these shapes, so it depends on no store or adapter module; the store keeps and returns `Figure`s.
import type { Cadence, Direction } from '../sources/types.js';

export interface SourceInfo {
  code: string;
  currency: string;
  cadence: Cadence;
  tableCadence?: Record<string, Cadence>;
  publishedAtUtc: string;
  publishedDayOffset?: number;
  publishedDayOffsetFrom?: string;
  /** Historical-only publishers are never blended into current rates. */
  discontinued?: string;
  /** Provenance grade of the source's recorded payloads (Source.grade in src/sources/types.ts). */
  grade?: 'A' | 'B' | 'C' | 'F';
}

/** One figure as a source published it and the store keeps it: the one record of an observation from
 *  the store to the blend (an adapter's `Observation`, src/sources/types.ts, before ingest names its
 *  source and table and stores it). */
export interface Figure {
  source: string;
  quote: string;
  date: string;
  /** Per 1 unit, published direction, exact decimal text. */
  rate: string;
  direction: Direction;
  unit: number;
  /** Table or series group ('' when the source has one). */
  table: string;
  /** When the store took the figure in (ISO 8601): a revision or a backfill is stored later, which
   *  tells the quality cache (quality-cache.ts) to measure again. */
  storedAt: string;
}

/** Figures with their repeated texts shared. A driver returns each row's texts as strings of their
 *  own, though a source, currency, date, table or stamp repeats thousands of times; figures held
 *  long (a rates build's input, history's reading window) keep one copy of each: a build's ~35k
 *  figures took 129 bytes of heap each instead of 271. */
export class SharedTexts {
  private readonly kept = new Map<string, string>();

  /** A copy of `f` whose texts are the ones kept. */
  figure(f: Figure): Figure {
    return { source: this.text(f.source), quote: this.text(f.quote), date: this.text(f.date), rate: f.rate, direction: this.text(f.direction), unit: f.unit, table: this.text(f.table), storedAt: this.text(f.storedAt) };
  }

  private text<T extends string>(text: T): T {
    const known = this.kept.get(text);
    if (known !== undefined) return known as T;
    this.kept.set(text, text);
    return text;
  }
}
