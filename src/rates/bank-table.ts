// What `/v1/bank/{code}` serves: each bank's newest figure per currency, in the bank's own digits
// (D6, D8). Built with the rates table; its four response bodies are kept with it (http/bodies/bank.ts).
import { FRESH_DAYS } from '../blend/freshness.js';
import { addDays } from '../time/days.js';
import type { Figure, SourceInfo } from '../blend/inputs.js';
import { bankUpdate, newestByQuote } from '../blend/rebase.js';
import { Decimal, toRateText } from '../money/decimal.js';
import { Memo } from './memo.js';
import type { PeriodRow } from '../store/store.js';

export interface BankInfo extends SourceInfo {
  name: string;
  countryCode: string;
}

export interface BankRow {
  currency: string;
  /** Units of the bank's base per 1 unit of the currency. */
  direct: string;
  /** Units of the currency per 1 unit of the bank's base. */
  reciprocal: string;
  lastUpdate: string;
  bankUpdate: string;
  /** A period rate's period as published (D21), first and last day in force. */
  period?: { from: string; to: string };
}

const stamp = (iso: string) => iso.slice(0, 19).replace('T', ' ');

/**
 * The rows a bank currently publishes: its newest figure per currency, leaving out currencies the
 * bank stopped publishing (older than one freshness window before the newest date of their table).
 */
export function currentRows(bank: BankInfo, rows: Figure[]): BankRow[] {
  const newest = [...newestByQuote(rows).values()];
  const newestOfTable = new Map<string, string>();
  for (const r of newest) if (r.date > (newestOfTable.get(r.table) ?? '')) newestOfTable.set(r.table, r.date);
  return newest
    .filter((r) => {
      const cadence = bank.tableCadence?.[r.table] ?? bank.cadence;
      return r.date >= addDays(newestOfTable.get(r.table)!, -FRESH_DAYS[cadence]);
    })
    .sort((a, b) => (a.quote < b.quote ? -1 : 1))
    .map((r) => ({ currency: r.quote, ...bankValues(r), lastUpdate: stamp(r.storedAt), bankUpdate: bankUpdate(bank, r.date) }));
}

/** Per currency, the figure in force on `day`: of those whose period covers it, the one that
 *  starts last. In currency order. */
export function inForce(rows: readonly PeriodRow[], day: string): PeriodRow[] {
  const best = new Map<string, PeriodRow>();
  for (const r of rows) {
    if (r.validFrom > day || r.validTo < day) continue;
    const seen = best.get(r.quote);
    if (!seen || r.validFrom > seen.validFrom) best.set(r.quote, r);
  }
  return [...best.values()].sort((a, b) => (a.quote < b.quote ? -1 : 1));
}

/** A period source's rows (D21): the figures in force, each with its period. Its `bank_update` is the
 *  first instant of the period, when the figure takes effect (the feeds do not say when they were
 *  published). */
export function periodRows(rows: readonly PeriodRow[]): BankRow[] {
  return rows.map((r) => ({ currency: r.quote, ...bankValues(r), lastUpdate: stamp(r.storedAt), bankUpdate: `${r.validFrom} 00:00:00`, period: { from: r.validFrom, to: r.validTo } }));
}

/** A row in both directions (D8): the published one keeps the bank's digits, the other is computed
 *  to 8 significant digits (D6). */
export function bankValues(r: Pick<Figure, 'rate' | 'direction' | 'unit'>): { direct: string; reciprocal: string } {
  // Per 1 unit, either way round: the other direction is the reciprocal.
  const other = toRateText(new Decimal(1).div(r.rate));
  return { direct: r.direction === 'direct' ? r.rate : other, reciprocal: r.direction === 'indirect' ? r.rate : other };
}

export class BankTable extends Memo {
  readonly lastUpdate: string | undefined;

  constructor(
    readonly bank: BankInfo & { countryName: string },
    readonly rows: BankRow[],
    /** The base the rows are quoted against, where it is not the bank's (Source.tableBase). */
    readonly base: string = bank.currency,
  ) {
    super();
    this.lastUpdate = rows.reduce<string | undefined>((m, r) => (m === undefined || r.bankUpdate > m ? r.bankUpdate : m), undefined);
  }
}
