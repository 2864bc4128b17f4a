// The registry: every adapter in ./banks/, listed explicitly in code order; the one list every count
// of sources is read from. `npm run new-source` adds the import and the SOURCES entry (CONTRIBUTING.md,
// "Adding a source", lists every file a new source touches).
import { source as AFGB } from './banks/afgb.js';
import { source as BAGU } from './banks/bagu.js';
import { source as BAJA } from './banks/baja.js';
import { source as BALG } from './banks/balg.js';
import { source as BBOT } from './banks/bbot.js';
import { source as BCAN } from './banks/bcan.js';
import { source as BCBR } from './banks/bcbr.js';
import { source as BCCG } from './banks/bccg.js';
import { source as BCCR } from './banks/bccr.js';
import { source as BCCU } from './banks/bccu.js';
import { source as BCEB } from './banks/bceb.js';
import { source as BCEC } from './banks/bcec.js';
import { source as BCPA } from './banks/bcpa.js';
import { source as BCRA } from './banks/bcra.js';
import { source as BCTN } from './banks/bctn.js';
import { source as BDEM } from './banks/bdem.js';
import { source as BEAC } from './banks/beac.js';
import { source as BGAL } from './banks/bgal.js';
import { source as BISB } from './banks/bisb.js';
import { source as BITA } from './banks/bita.js';
import { source as BKAM } from './banks/bkam.js';
import { source as BKEN } from './banks/bken.js';
import { source as BNAN } from './banks/bnan.js';
import { source as BNBG } from './banks/bnbg.js';
import { source as BNLN } from './banks/bnln.js';
import { source as BNMA } from './banks/bnma.js';
import { source as BNRW } from './banks/bnrw.js';
import { source as BOJP } from './banks/bojp.js';
import { source as BOMU } from './banks/bomu.js';
import { source as BOTH } from './banks/both.js';
import { source as BRBU } from './banks/brbu.js';
import { source as BREP } from './banks/brep.js';
import { source as CBBS } from './banks/cbbs.js';
import { source as CBCE } from './banks/cbce.js';
import { source as CBCT } from './banks/cbct.js';
import { source as CBCU } from './banks/cbcu.js';
import { source as CBEG } from './banks/cbeg.js';
import { source as CBGA } from './banks/cbga.js';
import { source as CBIR } from './banks/cbir.js';
import { source as CBKE } from './banks/cbke.js';
import { source as CBLR } from './banks/cblr.js';
import { source as CBMY } from './banks/cbmy.js';
import { source as CBNI } from './banks/cbni.js';
import { source as CBRA } from './banks/cbra.js';
import { source as CBRF } from './banks/cbrf.js';
import { source as CBSA } from './banks/cbsa.js';
import { source as CBTT } from './banks/cbtt.js';
import { source as CBTU } from './banks/cbtu.js';
import { source as CBUZ } from './banks/cbuz.js';
import { source as CNBA } from './banks/cnba.js';
import { source as CRPE } from './banks/crpe.js';
import { source as DKNB } from './banks/dknb.js';
import { source as ECBF } from './banks/ecbf.js';
import { source as EUIE } from './banks/euie.js';
import { source as FRNY } from './banks/frny.js';
import { source as HKMA } from './banks/hkma.js';
import { source as HMRC } from './banks/hmrc.js';
import { source as IMFD } from './banks/imfd.js';
import { source as INDO } from './banks/indo.js';
import { source as ISRA } from './banks/isra.js';
import { source as LIAB } from './banks/liab.js';
import { source as MANE } from './banks/mane.js';
import { source as MARK } from './banks/mark.js';
import { source as MASG } from './banks/masg.js';
import { source as MFAM } from './banks/mfam.js';
import { source as MMAU } from './banks/mmau.js';
import { source as NABZ } from './banks/nabz.js';
import { source as NATJ } from './banks/natj.js';
import { source as NBET } from './banks/nbet.js';
import { source as NBHK } from './banks/nbhk.js';
import { source as NBHR } from './banks/nbhr.js';
import { source as NBKI } from './banks/nbki.js';
import { source as NBMD } from './banks/nbmd.js';
import { source as NBOR } from './banks/nbor.js';
import { source as NBPL } from './banks/nbpl.js';
import { source as NBRB } from './banks/nbrb.js';
import { source as NBRK } from './banks/nbrk.js';
import { source as NBRM } from './banks/nbrm.js';
import { source as NBSR } from './banks/nbsr.js';
import { source as NBUA } from './banks/nbua.js';
import { source as NCAM } from './banks/ncam.js';
import { source as NRBL } from './banks/nrbl.js';
import { source as NRBT } from './banks/nrbt.js';
import { source as PBOC } from './banks/pboc.js';
import { source as PHCB } from './banks/phcb.js';
import { source as PMAP } from './banks/pmap.js';
import { source as RBFJ } from './banks/rbfj.js';
import { source as RBIS } from './banks/rbis.js';
import { source as RBMA } from './banks/rbma.js';
import { source as RBVA } from './banks/rbva.js';
import { source as REPU } from './banks/repu.js';
import { source as RIKS } from './banks/riks.js';
import { source as RSBK } from './banks/rsbk.js';
import { source as SARB } from './banks/sarb.js';
import { source as SBPP } from './banks/sbpp.js';
import { source as SISL } from './banks/sisl.js';
import { source as STAN } from './banks/stan.js';
import { source as TANZ } from './banks/tanz.js';
import { source as TCMB } from './banks/tcmb.js';
import { source as USTR } from './banks/ustr.js';
import type { Source } from './types.js';

export const SOURCES: readonly Source[] = [
  AFGB, BAGU, BAJA, BALG, BBOT, BCAN, BCBR, BCCG, BCCR, BCCU, BCEB, BCEC, BCPA, BCRA, BCTN, BDEM,
  BEAC, BGAL, BISB, BITA, BKAM, BKEN, BNAN, BNBG, BNLN, BNMA, BNRW, BOJP, BOMU, BOTH, BRBU, BREP,
  CBBS, CBCE, CBCT, CBCU, CBEG, CBGA, CBIR, CBKE, CBLR, CBMY, CBNI, CBRA, CBRF, CBSA, CBTT, CBTU,
  CBUZ, CNBA, CRPE, DKNB, ECBF, EUIE, FRNY, HKMA, HMRC, IMFD, INDO, ISRA, LIAB, MANE, MARK, MASG,
  MFAM, MMAU, NABZ, NATJ, NBET, NBHK, NBHR, NBKI, NBMD, NBOR, NBPL, NBRB, NBRK, NBRM, NBSR, NBUA,
  NCAM, NRBL, NRBT, PBOC, PHCB, PMAP, RBFJ, RBIS, RBMA, RBVA, REPU, RIKS, RSBK, SARB, SBPP, SISL,
  STAN, TANZ, TCMB, USTR,
];

/** Codes seen in BankFxApi clients, accepted on `/v1/bank/{code}` so migrating clients keep working (D9). */
export const BANK_ALIASES: Readonly<Record<string, string>> = { AFCB: 'AFGB', TJNB: 'NATJ' };

const BY_CODE = new Map(SOURCES.map((s) => [s.code, s]));

export function sourceByCode(code: string): Source | undefined {
  return BY_CODE.get(code) ?? BY_CODE.get(BANK_ALIASES[code] ?? '');
}
