// The registry: every adapter, listed explicitly in code order. Adding a source = its file, its
// test, one line here, one CHANGELOG line (CONTRIBUTING.md).
import { source as BCAN } from './bcan.js';
import { source as CNBA } from './cnba.js';
import { source as ECBF } from './ecbf.js';
import { source as FRNY } from './frny.js';
import { source as NBPL } from './nbpl.js';
import type { Source } from './types.js';

export const SOURCES: readonly Source[] = [BCAN, CNBA, ECBF, FRNY, NBPL];

/** Codes seen in BankFxApi clients, accepted on `/v1/bank/{code}` so migrating clients keep working (D9). */
export const BANK_ALIASES: Readonly<Record<string, string>> = { AFCB: 'AFGB', TJNB: 'NATJ' };

const BY_CODE = new Map(SOURCES.map((s) => [s.code, s]));

export function sourceByCode(code: string): Source | undefined {
  return BY_CODE.get(code) ?? BY_CODE.get(BANK_ALIASES[code] ?? '');
}
