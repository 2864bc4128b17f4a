// Step 5: official pegs. Where a currency's authority fixes it to an anchor at a stated rate, that
// rate is the truth and the market figures of third-party banks are noise around it. Only hard
// pegs are listed: bands (HKD 7.75–7.85, DKK in ERM II) move, so they are blended like any other.
import { Decimal } from '../money/decimal.js';

export interface Peg {
  currency: string;
  anchor: string;
  /** Units of `currency` per 1 unit of `anchor`. */
  rate: Decimal;
  authority: string;
}

const peg = (currency: string, anchor: string, rate: string | Decimal, authority: string): Peg => ({ currency, anchor, rate: new Decimal(rate), authority });

export const PEGS: readonly Peg[] = [
  peg('AED', 'USD', '3.6725', 'Central Bank of the UAE'),
  peg('AWG', 'USD', '1.79', 'Centrale Bank van Aruba'),
  peg('BAM', 'EUR', '1.95583', 'Central Bank of Bosnia and Herzegovina (currency board)'),
  peg('BBD', 'USD', '2', 'Central Bank of Barbados'),
  peg('BHD', 'USD', '0.376', 'Central Bank of Bahrain'),
  peg('BMD', 'USD', '1', 'Bermuda Monetary Authority'),
  peg('BND', 'SGD', '1', 'Brunei Currency and Monetary Board (Currency Interchangeability Agreement)'),
  peg('BSD', 'USD', '1', 'Central Bank of The Bahamas'),
  peg('BTN', 'INR', '1', 'Royal Monetary Authority of Bhutan'),
  peg('BZD', 'USD', '2', 'Central Bank of Belize'),
  peg('CVE', 'EUR', '110.265', 'Banco de Cabo Verde'),
  peg('DJF', 'USD', '177.721', 'Banque Centrale de Djibouti (currency board)'),
  peg('ERN', 'USD', '15', 'Bank of Eritrea'),
  peg('FKP', 'GBP', '1', 'Falkland Islands Government'),
  peg('GIP', 'GBP', '1', 'Government of Gibraltar'),
  peg('JOD', 'USD', '0.709', 'Central Bank of Jordan'),
  // 1 KYD = 1.20 USD.
  peg('KYD', 'USD', new Decimal(1).div('1.2'), 'Cayman Islands Monetary Authority'),
  peg('KMF', 'EUR', '491.96775', 'Banque Centrale des Comores'),
  peg('LSL', 'ZAR', '1', 'Central Bank of Lesotho (Common Monetary Area)'),
  peg('MOP', 'HKD', '1.03', 'Autoridade Monetária de Macau'),
  peg('NAD', 'ZAR', '1', 'Bank of Namibia (Common Monetary Area)'),
  peg('NPR', 'INR', '1.6', 'Nepal Rastra Bank'),
  peg('OMR', 'USD', '0.3845', 'Central Bank of Oman'),
  peg('PAB', 'USD', '1', 'Banco Nacional de Panamá'),
  peg('QAR', 'USD', '3.64', 'Qatar Central Bank'),
  peg('SAR', 'USD', '3.75', 'Saudi Central Bank'),
  peg('SHP', 'GBP', '1', 'Government of Saint Helena'),
  peg('STN', 'EUR', '24.5', 'Banco Central de São Tomé e Príncipe'),
  peg('SZL', 'ZAR', '1', 'Central Bank of Eswatini (Common Monetary Area)'),
  peg('XAF', 'EUR', '655.957', 'Banque des États de l\'Afrique Centrale'),
  peg('XCD', 'USD', '2.7', 'Eastern Caribbean Central Bank'),
  peg('XCG', 'USD', '1.79', 'Centrale Bank van Curaçao en Sint Maarten'),
  peg('XOF', 'EUR', '655.957', 'Banque Centrale des États de l\'Afrique de l\'Ouest'),
  // 1,000 XPF = 8.38 EUR.
  peg('XPF', 'EUR', new Decimal(1000).div('8.38'), 'Institut d\'Émission d\'Outre-Mer'),
];

export const PEG_BY_CURRENCY: ReadonlyMap<string, Peg> = new Map(PEGS.map((p) => [p.currency, p]));
