// A bank's own figures as they stood at the end of a day (D14 on `/v1/bank/{code}?date=`): its
// newest figure per currency whose bank_update falls on or before the day, in the bank's digits.
import { bankUpdate } from '../blend/rebase.js';
import { BankTable, currentRows } from '../rates/bank-table.js';
import type { Source } from '../sources/types.js';
import type { Store } from '../store/store.js';
import { inputWindow } from './day.js';

export async function bankTableOn(store: Store, source: Source, day: string): Promise<BankTable> {
  const w = inputWindow(day);
  const rows = (await store.sourceObservationsBetween(source.code, w.from, w.to)).filter((r) => bankUpdate(source, r.date).slice(0, 10) <= day);
  return new BankTable(source, currentRows(source, rows));
}
