// The blend's last step (blend.ts, withPegs): official pegs. Where a currency's authority fixes it to
// an anchor at a stated rate, that rate is the truth and the market figures of third-party banks are
// noise around it. Only hard pegs and irrevocable conversion rates are listed: bands (HKD 7.75–7.85,
// DKK in ERM II) move, so they are blended like any other. Each peg holds from its first day to its
// last (both inclusive, UTC days), so a past day gets the pegs of its own time (issue 25). Where a
// source gives only the month or the year a peg began, `from` is the first day of the next month or
// year, the first we are sure of; before 1987 the seed has no USD at all, so the day of an older
// start changes no figure.
import { HISTORIC_CURRENCIES } from '../currencies/iso4217.js';
import { Decimal } from '../money/decimal.js';
import { addDays } from '../time/days.js';

export interface Peg {
  currency: string;
  anchor: string;
  /** Units of `currency` per 1 unit of `anchor`. */
  rate: Decimal;
  /** First day in force (YYYY-MM-DD). */
  from: string;
  /** Last day in force; absent while the peg holds. */
  to?: string;
  authority: string;
  note?: string;
}

const peg = (currency: string, anchor: string, rate: string | Decimal, from: string, authority: string, more: { to?: string; note?: string } = {}): Peg =>
  ({ currency, anchor, rate: new Decimal(rate), from, authority, ...more });

const UNTIL = new Map(HISTORIC_CURRENCIES.map((c) => [c.code, c.until]));
/** The last day Kurs quotes a defunct currency (D14): a conversion rate lasts as long. */
function until(code: string): string {
  const day = UNTIL.get(code);
  if (!day) throw new Error(`${code} is not a historic currency`);
  return day;
}

const EU = 'Council of the European Union';
const R2866 = 'Regulation (EC) No 2866/98';
/** The euro's irrevocable conversion rates: Council Regulation (EC) No 2866/98 and, for each later
 *  entrant, the regulation amending it. Each holds from the day the currency joined the euro for as
 *  long as Kurs quotes the legacy currency (its dual circulation). */
const EURO: readonly (readonly [code: string, rate: string, from: string, regulation: string])[] = [
  ['ATS', '13.7603', '1999-01-01', R2866],
  ['BEF', '40.3399', '1999-01-01', R2866],
  ['DEM', '1.95583', '1999-01-01', R2866],
  ['ESP', '166.386', '1999-01-01', R2866],
  ['FIM', '5.94573', '1999-01-01', R2866],
  ['FRF', '6.55957', '1999-01-01', R2866],
  ['IEP', '0.787564', '1999-01-01', R2866],
  ['ITL', '1936.27', '1999-01-01', R2866],
  ['LUF', '40.3399', '1999-01-01', R2866],
  ['NLG', '2.20371', '1999-01-01', R2866],
  ['PTE', '200.482', '1999-01-01', R2866],
  ['GRD', '340.750', '2001-01-01', 'Regulation (EC) No 1478/2000'],
  ['SIT', '239.640', '2007-01-01', 'Regulation (EC) No 1086/2006'],
  ['CYP', '0.585274', '2008-01-01', 'Regulation (EC) No 1135/2007'],
  ['MTL', '0.429300', '2008-01-01', 'Regulation (EC) No 1135/2007'],
  ['SKK', '30.1260', '2009-01-01', 'Regulation (EC) No 694/2008'],
  ['EEK', '15.6466', '2011-01-01', 'Regulation (EU) No 671/2010'],
  ['LVL', '0.702804', '2014-01-01', 'Regulation (EU) No 870/2013'],
  ['LTL', '3.45280', '2015-01-01', 'Regulation (EU) No 851/2014'],
  ['HRK', '7.53450', '2023-01-01', 'Regulation (EU) 2022/1208'],
  // Adopted by the Council on 8 July 2025, for Bulgaria's entry on 1 January 2026.
  ['BGN', '1.95583', '2026-01-01', `the amendment of ${R2866} of 8 July 2025`],
];

const BCEAO = "Banque Centrale des États de l'Afrique de l'Ouest";
const BEAC = "Banque des États de l'Afrique Centrale";
const BCC = 'Banque Centrale des Comores';
const IEOM = "Institut d'Émission d'Outre-Mer";
const BNB = 'Bulgarian National Bank (currency board)';
const CBBH = 'Central Bank of Bosnia and Herzegovina (currency board)';
const BOL = 'Bank of Lithuania (currency board)';
const EP = 'Eesti Pank (currency board)';
const BCV = 'Banco de Cabo Verde (Exchange Rate Cooperation Agreement with Portugal)';

export const PEGS: readonly Peg[] = [
  ...EURO.map(([code, rate, from, regulation]) => peg(code, 'EUR', rate, from, `${EU}, ${regulation}`, { to: until(code), note: 'irrevocable conversion rate' })),
  // 3.6725 in practice since the 1980s; the formal peg dates from November 1997 (reported as the 22nd).
  peg('AED', 'USD', '3.6725', '1997-12-01', 'Central Bank of the UAE'),
  // At 1.79 since the dollar's realignment of December 1971; replaced 1:1 by XCG.
  peg('ANG', 'USD', '1.79', '1972-01-01', 'Centrale Bank van Curaçao en Sint Maarten', { to: until('ANG') }),
  peg('AWG', 'USD', '1.79', '1986-01-01', 'Centrale Bank van Aruba'),
  // 1.7001 from 2017-12-13, 1.7000 "since March 2018" (the Central Bank's chairman, news.az,
  // 2019-02-01) and ever since; the recorded bulletins (2011, 2019, 2026) cannot date it closer.
  peg('AZN', 'USD', '1.7', '2018-04-01', 'Central Bank of the Republic of Azerbaijan'),
  // The convertible mark's notes entered circulation on 22 June 1998, at par with the Deutsche Mark.
  peg('BAM', 'DEM', '1', '1998-06-22', CBBH, { to: '1998-12-31' }),
  peg('BAM', 'EUR', '1.95583', '1999-01-01', CBBH),
  peg('BBD', 'USD', '2', '1975-07-05', 'Central Bank of Barbados'),
  // The lev's currency board: 1,000 old leva (BGL) per Deutsche Mark from 1 July 1997; the new lev
  // (BGN, 1,000 BGL) from its first day, 5 July 1999. The seed holds no BGL and BGN only from the
  // ECB's first figure (2000-07-19), so the peg makes both appear from their own first days.
  peg('BGL', 'DEM', '1000', '1997-07-01', BNB, { to: '1998-12-31' }),
  peg('BGL', 'EUR', '1955.83', '1999-01-01', BNB, { to: until('BGL') }),
  peg('BGN', 'EUR', '1.95583', '1999-07-05', BNB, { to: '2025-12-31' }),
  // In practice 0.376 since the SDR link of December 1980 (formally a USD peg only from 2001).
  peg('BHD', 'USD', '0.376', '1981-01-01', 'Central Bank of Bahrain'),
  // At par since 1972 (day not confirmed).
  peg('BMD', 'USD', '1', '1973-01-01', 'Bermuda Monetary Authority'),
  peg('BND', 'SGD', '1', '1967-06-12', 'Brunei Currency and Monetary Board (Currency Interchangeability Agreement)'),
  // Introduced on 25 May 1966 at 7 shillings, a US dollar; it stayed at par when sterling fell in 1967.
  peg('BSD', 'USD', '1', '1966-05-25', 'Central Bank of The Bahamas'),
  // Introduced in 1974 at par.
  peg('BTN', 'INR', '1', '1975-01-01', 'Royal Monetary Authority of Bhutan'),
  // Switched from sterling to the dollar in mid-1976.
  peg('BZD', 'USD', '2', '1977-01-01', 'Central Bank of Belize'),
  // 1 PTE = 0.55 CVE from mid-1998 (the agreement of 13 March 1998); the Commission's recommendation
  // of 19 November 1998 describes the parity, the first day we are sure of.
  peg('CVE', 'PTE', '0.55', '1998-11-19', BCV, { to: '1998-12-31' }),
  peg('CVE', 'EUR', '110.265', '1999-01-01', BCV),
  // Since the dollar's devaluation of February 1973.
  peg('DJF', 'USD', '177.721', '1973-03-01', 'Banque Centrale de Djibouti (currency board)'),
  // 8 kroons per Deutsche Mark from the kroon's introduction on 20 June 1992.
  peg('EEK', 'DEM', '8', '1992-06-20', EP, { to: '1998-12-31' }),
  peg('EEK', 'EUR', '15.6466', '1999-01-01', EP, { to: '2010-12-31' }),
  // Fixed at 15 during 2005 (month not found; 13.50 before).
  peg('ERN', 'USD', '15', '2006-01-01', 'Bank of Eritrea'),
  // At par with sterling since before decimalisation: dated from Decimal Day (15 February 1971).
  peg('FKP', 'GBP', '1', '1971-02-15', 'Falkland Islands Government'),
  peg('GIP', 'GBP', '1', '1971-02-15', 'Government of Gibraltar'),
  // The Central Bank's circular fixing 708/710 fils took effect in early November 1995 (UPI,
  // 1995-11-23); often dated 23 October 1995.
  peg('JOD', 'USD', '0.709', '1995-11-23', 'Central Bank of Jordan'),
  // 1 KYD = 1.20 USD since the Currency Law of 1 April 1974.
  peg('KYD', 'USD', new Decimal(1).div('1.2'), '1974-04-01', 'Cayman Islands Monetary Authority'),
  // The Comorian franc (issued from 1981) kept the CFA parity, 50 per French franc, until the
  // devaluation of 12 January 1994, then 75.
  peg('KMF', 'FRF', '50', '1982-01-01', BCC, { to: '1994-01-11' }),
  peg('KMF', 'FRF', '75', '1994-01-12', BCC, { to: '1998-12-31' }),
  peg('KMF', 'EUR', '491.96775', '1999-01-01', BCC),
  // The loti circulated from 1980.
  peg('LSL', 'ZAR', '1', '1981-01-01', 'Central Bank of Lesotho (Common Monetary Area)'),
  // 4 litai per dollar from 1 April 1994; re-pegged to the euro at 3.4528 on 2 February 2002.
  peg('LTL', 'USD', '4', '1994-04-01', BOL, { to: '2002-02-01' }),
  peg('LTL', 'EUR', '3.4528', '2002-02-02', BOL, { to: '2014-12-31' }),
  // 1.03 through the 1990s (MOP 8.034 per USD in 1993–95); its start was not found.
  peg('MOP', 'HKD', '1.03', '1993-01-01', 'Autoridade Monetária de Macau'),
  // The Bank of Namibia's first notes, 15 September 1993.
  peg('NAD', 'ZAR', '1', '1993-09-15', 'Bank of Namibia (Common Monetary Area)'),
  // 1.60 since February 1993 (some accounts say 1994): dated from when both agree.
  peg('NPR', 'INR', '1.6', '1995-01-01', 'Nepal Rastra Bank'),
  // Devalued to 0.3845 in January 1986.
  peg('OMR', 'USD', '0.3845', '1986-02-01', 'Central Bank of Oman'),
  // At par since 1904.
  peg('PAB', 'USD', '1', '1905-01-01', 'Banco Nacional de Panamá'),
  // Amiri Decree No. 34 of 2001, signed 9 July 2001 (3.64 in practice since 1980).
  peg('QAR', 'USD', '3.64', '2001-07-09', 'Qatar Central Bank'),
  // Since June 1986 (formally from 1 January 2003).
  peg('SAR', 'USD', '3.75', '1986-07-01', 'Saudi Central Bank'),
  // The Saint Helena pound was introduced in 1976.
  peg('SHP', 'GBP', '1', '1977-01-01', 'Government of Saint Helena'),
  // 24,500 old dobras (STD) per euro from 1 January 2010 (the 2009 agreement with Portugal); the new
  // dobra (STN, 1,000 STD) from 1 January 2018.
  peg('STD', 'EUR', '24500', '2010-01-01', 'Banco Central de São Tomé e Príncipe', { to: until('STD') }),
  peg('STN', 'EUR', '24.5', '2018-01-01', 'Banco Central de São Tomé e Príncipe'),
  // The lilangeni was introduced in 1974.
  peg('SZL', 'ZAR', '1', '1975-01-01', 'Central Bank of Eswatini (Common Monetary Area)'),
  // The CFA francs: 50 per (new) French franc from 1960, 100 from the devaluation of 12 January 1994.
  peg('XAF', 'FRF', '50', '1960-01-01', BEAC, { to: '1994-01-11' }),
  peg('XAF', 'FRF', '100', '1994-01-12', BEAC, { to: '1998-12-31' }),
  peg('XAF', 'EUR', '655.957', '1999-01-01', BEAC),
  peg('XCD', 'USD', '2.7', '1976-07-07', 'Eastern Caribbean Central Bank'),
  peg('XCG', 'USD', '1.79', '2025-03-31', 'Centrale Bank van Curaçao en Sint Maarten'),
  peg('XOF', 'FRF', '50', '1960-01-01', BCEAO, { to: '1994-01-11' }),
  peg('XOF', 'FRF', '100', '1994-01-12', BCEAO, { to: '1998-12-31' }),
  peg('XOF', 'EUR', '655.957', '1999-01-01', BCEAO),
  // 100 XPF = 5.5 French francs since the new franc (1960); 1,000 XPF = 8.38 EUR since 1999.
  peg('XPF', 'FRF', new Decimal(1).div('0.055'), '1960-01-01', IEOM, { to: '1998-12-31' }),
  peg('XPF', 'EUR', new Decimal(1000).div('8.38'), '1999-01-01', IEOM),
];

/** The days on which the pegs in force change, ascending: between two of them the set is the same. */
const CHANGES = [...new Set(PEGS.flatMap((p) => (p.to ? [p.from, addDays(p.to, 1)] : [p.from])))].sort();
/** Module-level because PEGS is: a memo of a pure function of a constant, one map per interval. */
const inForceByInterval = new Map<number, ReadonlyMap<string, Peg>>();

/** The pegs in force on `day`, by currency; one map per interval between changes, built once. */
export function pegsOn(day: string): ReadonlyMap<string, Peg> {
  let lo = 0;
  let hi = CHANGES.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CHANGES[mid]! <= day) lo = mid + 1;
    else hi = mid;
  }
  let pegs = inForceByInterval.get(lo);
  if (!pegs) inForceByInterval.set(lo, (pegs = inForce(day)));
  return pegs;
}

function inForce(day: string): ReadonlyMap<string, Peg> {
  const out = new Map<string, Peg>();
  for (const p of PEGS) {
    if (p.from > day || (p.to !== undefined && p.to < day)) continue;
    if (out.has(p.currency)) throw new Error(`two pegs for ${p.currency} on ${day}`);
    out.set(p.currency, p);
  }
  return out;
}
