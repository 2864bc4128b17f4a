// A bank's own figures as they stood at the end of a day (D14 on `/v1/bank/{code}?date=`): its
// newest figure per currency whose bank_update falls on or before the day, in the bank's digits.
// A period source's (D21): the figures in force that day, each with its period.
import { bankUpdate } from '../blend/rebase.js';
import { inputWindow } from '../blend/window.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { BankTable, currentRows, inForce, periodRows } from './bank-table.js';

export async function bankTableOn(store: Store, source: Source, day: string): Promise<BankTable> {
  if (source.periodRates) {
    const rows = inForce(await store.sourcePeriods(source.code, day, day), day);
    // Figures all of a table quoted against another base (InforEuro's per-ECU rates before 1999).
    const tables = new Set(rows.map((r) => r.table));
    const base = tables.size === 1 ? source.tableBase?.[rows[0]!.table] : undefined;
    return new BankTable(source, periodRows(rows), base);
  }
  const w = inputWindow(day);
  const rows = (await store.sourceObservationsBetween(source.code, w.from, w.to)).filter((r) => bankUpdate(source, r.date).slice(0, 10) <= day);
  return new BankTable(source, currentRows(source, rows));
}
