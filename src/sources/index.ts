// The registry: every adapter, listed explicitly in code order. Adding a source = its file, its
// test, one line here, one CHANGELOG line (CONTRIBUTING.md).
import { source as AFGB } from './afgb.js';
import { source as BAGU } from './bagu.js';
import { source as BAJA } from './baja.js';
import { source as BALG } from './balg.js';
import { source as BBOT } from './bbot.js';
import { source as BCAN } from './bcan.js';
import { source as BCBR } from './bcbr.js';
import { source as BCCR } from './bccr.js';
import { source as BCCU } from './bccu.js';
import { source as BCEB } from './bceb.js';
import { source as BCEC } from './bcec.js';
import { source as BCPA } from './bcpa.js';
import { source as BCRA } from './bcra.js';
import { source as BCTN } from './bctn.js';
import { source as BDEM } from './bdem.js';
import { source as BEAC } from './beac.js';
import { source as BGAL } from './bgal.js';
import { source as BITA } from './bita.js';
import { source as BKAM } from './bkam.js';
import { source as BKEN } from './bken.js';
import { source as BNAN } from './bnan.js';
import { source as BNBG } from './bnbg.js';
import { source as BNLN } from './bnln.js';
import { source as BNMA } from './bnma.js';
import { source as BNRW } from './bnrw.js';
import { source as BOJP } from './bojp.js';
import { source as BOMU } from './bomu.js';
import { source as BOTH } from './both.js';
import { source as BRBU } from './brbu.js';
import { source as BREP } from './brep.js';
import { source as CBCE } from './cbce.js';
import { source as CBCT } from './cbct.js';
import { source as CBCU } from './cbcu.js';
import { source as CBEG } from './cbeg.js';
import { source as CBGA } from './cbga.js';
import { source as CBIR } from './cbir.js';
import { source as CBKE } from './cbke.js';
import { source as CBLR } from './cblr.js';
import { source as CBMY } from './cbmy.js';
import { source as CBNI } from './cbni.js';
import { source as CBRA } from './cbra.js';
import { source as CBRF } from './cbrf.js';
import { source as CBSA } from './cbsa.js';
import { source as CBTU } from './cbtu.js';
import { source as CBUZ } from './cbuz.js';
import { source as CNBA } from './cnba.js';
import { source as DKNB } from './dknb.js';
import { source as ECBF } from './ecbf.js';
import { source as FRNY } from './frny.js';
import { source as HKMA } from './hkma.js';
import { source as IMFD } from './imfd.js';
import { source as INDO } from './indo.js';
import { source as LIAB } from './liab.js';
import { source as MANE } from './mane.js';
import { source as MARK } from './mark.js';
import { source as MASG } from './masg.js';
import { source as MFAM } from './mfam.js';
import { source as MMAU } from './mmau.js';
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
import { source as NBSR } from './nbsr.js';
import { source as NBUA } from './nbua.js';
import { source as NCAM } from './ncam.js';
import { source as NRBL } from './nrbl.js';
import { source as NRBT } from './nrbt.js';
import { source as PHCB } from './phcb.js';
import { source as RBFJ } from './rbfj.js';
import { source as RBIS } from './rbis.js';
import { source as RBMA } from './rbma.js';
import { source as RBVA } from './rbva.js';
import { source as RIKS } from './riks.js';
import { source as RSBK } from './rsbk.js';
import { source as SARB } from './sarb.js';
import { source as SBPP } from './sbpp.js';
import { source as SISL } from './sisl.js';
import { source as STAN } from './stan.js';
import { source as TANZ } from './tanz.js';
import { source as TCMB } from './tcmb.js';
import type { Source } from './types.js';

export const SOURCES: readonly Source[] = [
  AFGB, BAGU, BAJA, BALG, BBOT, BCAN, BCBR, BCCR, BCCU, BCEB, BCEC, BCPA, BCRA, BCTN, BDEM, BEAC,
  BGAL, BITA, BKAM, BKEN, BNAN, BNBG, BNLN, BNMA, BNRW, BOJP, BOMU, BOTH, BRBU, BREP, CBCE, CBCT,
  CBCU, CBEG, CBGA, CBIR, CBKE, CBLR, CBMY, CBNI, CBRA, CBRF, CBSA, CBTU, CBUZ, CNBA, DKNB, ECBF,
  FRNY, HKMA, IMFD, INDO, LIAB, MANE, MARK, MASG, MFAM, MMAU, NATJ, NBET, NBHK, NBHR, NBKI, NBMD,
  NBOR, NBPL, NBRB, NBRK, NBRM, NBSR, NBUA, NCAM, NRBL, NRBT, PHCB, RBFJ, RBIS, RBMA, RBVA, RIKS,
  RSBK, SARB, SBPP, SISL, STAN, TANZ, TCMB,
];

/** Codes seen in BankFxApi clients, accepted on `/v1/bank/{code}` so migrating clients keep working (D9). */
export const BANK_ALIASES: Readonly<Record<string, string>> = { AFCB: 'AFGB', TJNB: 'NATJ' };

const BY_CODE = new Map(SOURCES.map((s) => [s.code, s]));

export function sourceByCode(code: string): Source | undefined {
  return BY_CODE.get(code) ?? BY_CODE.get(BANK_ALIASES[code] ?? '');
}
