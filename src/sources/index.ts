// The registry: every adapter, listed explicitly in code order. Adding a source = its file, its
// test, one line here, one CHANGELOG line (CONTRIBUTING.md).
import { source as BCAN } from './bcan.js';
import { source as BCBR } from './bcbr.js';
import { source as BCEC } from './bcec.js';
import { source as BCRA } from './bcra.js';
import { source as BDEM } from './bdem.js';
import { source as BITA } from './bita.js';
import { source as BKAM } from './bkam.js';
import { source as BKEN } from './bken.js';
import { source as BNLN } from './bnln.js';
import { source as BNMA } from './bnma.js';
import { source as BOJP } from './bojp.js';
import { source as BOTH } from './both.js';
import { source as BREP } from './brep.js';
import { source as CBCU } from './cbcu.js';
import { source as CBEG } from './cbeg.js';
import { source as CBKE } from './cbke.js';
import { source as CBRA } from './cbra.js';
import { source as CBRF } from './cbrf.js';
import { source as CBUZ } from './cbuz.js';
import { source as CNBA } from './cnba.js';
import { source as DKNB } from './dknb.js';
import { source as ECBF } from './ecbf.js';
import { source as FRNY } from './frny.js';
import { source as HKMA } from './hkma.js';
import { source as IMFD } from './imfd.js';
import { source as INDO } from './indo.js';
import { source as MANE } from './mane.js';
import { source as MASG } from './masg.js';
import { source as NATJ } from './natj.js';
import { source as NBET } from './nbet.js';
import { source as NBHK } from './nbhk.js';
import { source as NBHR } from './nbhr.js';
import { source as NBKI } from './nbki.js';
import { source as NBMD } from './nbmd.js';
import { source as NBOR } from './nbor.js';
import { source as NBPL } from './nbpl.js';
import { source as NBRB } from './nbrb.js';
import { source as NBRK } from './nbrk.js';
import { source as NBRM } from './nbrm.js';
import { source as NBUA } from './nbua.js';
import { source as RIKS } from './riks.js';
import { source as RSBK } from './rsbk.js';
import { source as SARB } from './sarb.js';
import { source as SISL } from './sisl.js';
import { source as STAN } from './stan.js';
import { source as TCMB } from './tcmb.js';
import type { Source } from './types.js';

export const SOURCES: readonly Source[] = [
  BCAN, BCBR, BCEC, BCRA, BDEM, BITA, BKAM, BKEN, BNLN, BNMA, BOJP, BOTH, BREP, CBCU, CBEG, CBKE,
  CBRA, CBRF, CBUZ, CNBA, DKNB, ECBF, FRNY, HKMA, IMFD, INDO, MANE, MASG, NATJ, NBET, NBHK, NBHR,
  NBKI, NBMD, NBOR, NBPL, NBRB, NBRK, NBRM, NBUA, RIKS, RSBK, SARB, SISL, STAN, TCMB,
];

/** Codes seen in BankFxApi clients, accepted on `/v1/bank/{code}` so migrating clients keep working (D9). */
export const BANK_ALIASES: Readonly<Record<string, string>> = { AFCB: 'AFGB', TJNB: 'NATJ' };

const BY_CODE = new Map(SOURCES.map((s) => [s.code, s]));

export function sourceByCode(code: string): Source | undefined {
  return BY_CODE.get(code) ?? BY_CODE.get(BANK_ALIASES[code] ?? '');
}
