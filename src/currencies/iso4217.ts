/**
 * ISO 4217 currency reference data (docs/decisions.md#d4-codes, docs/api.md#records).
 *
 * ACTIVE_CURRENCIES is ISO 4217 "list one" as it stands in 2026, minus the fund codes (BOV, CLF, COU,
 * MXV, USN, UYI, UYW, CHE, CHW), the supranational accounting units (XSU, XUA, XBA–XBD), the
 * testing / no-currency codes (XTS, XXX) and the precious metals, plus XDR; the four metals (XAU, XAG,
 * XPT, XPD: one troy ounce each) follow as METAL_ROWS. Together these are what Kurs quotes in blended
 * rates and lists on /v1/currencies ("active" in this code: D4, D19).
 *
 * Changes against the 2024-06-25 edition of list one, applied here:
 * - BGN removed: Bulgaria adopted the euro on 2026-01-01 (lev legal tender until 2026-01-31).
 * - ANG removed, XCG added: the Caribbean guilder replaced the Netherlands Antillean guilder in
 *   Curaçao and Sint Maarten on 2025-03-31; ANG stopped being legal tender after 2025-06-30, so in
 *   2026 it is no longer an active currency and only appears in history.
 * - CUC treated as defunct although list one still carried it in 2024: Cuba withdrew the convertible
 *   peso from circulation in 2021 (shops stopped accepting it on 2021-07-01); no one quotes it.
 * Earlier removals already reflected in that edition: HRK (euro 2023), SLL (replaced by SLE), ZWL
 * (replaced by ZWG), MRO/STD/VEF/BYR (redenominated).
 *
 * One record per currency (D4): the issuing country; for a shared currency the issuing union or
 * authority, or the country where its issuing central bank has its seat. Country codes are ISO 3166-1
 * alpha-2, except EU (exceptionally reserved, "Euro area") and ZZ (user-assigned: the IMF, the metals).
 */

export interface CurrencyInfo {
  /** ISO 4217 alphabetic code, upper case. */
  code: string;
  /** ISO 3166-1 alpha-2 code of the issuing country (EU, ZZ for the euro area and the IMF). */
  countryCode: string;
  /** Short English name of that country or authority. */
  countryName: string;
  /** English currency name, as ISO 4217 gives it. */
  name: string;
}

// [code, countryCode, countryName, currency name], sorted by code.
const ACTIVE_ROWS: readonly (readonly [string, string, string, string])[] = [
  ['AED', 'AE', 'United Arab Emirates', 'UAE Dirham'],
  ['AFN', 'AF', 'Afghanistan', 'Afghani'],
  ['ALL', 'AL', 'Albania', 'Lek'],
  ['AMD', 'AM', 'Armenia', 'Armenian Dram'],
  ['AOA', 'AO', 'Angola', 'Kwanza'],
  ['ARS', 'AR', 'Argentina', 'Argentine Peso'],
  ['AUD', 'AU', 'Australia', 'Australian Dollar'],
  ['AWG', 'AW', 'Aruba', 'Aruban Florin'],
  ['AZN', 'AZ', 'Azerbaijan', 'Azerbaijan Manat'],
  ['BAM', 'BA', 'Bosnia and Herzegovina', 'Convertible Mark'],
  ['BBD', 'BB', 'Barbados', 'Barbados Dollar'],
  ['BDT', 'BD', 'Bangladesh', 'Taka'],
  ['BHD', 'BH', 'Bahrain', 'Bahraini Dinar'],
  ['BIF', 'BI', 'Burundi', 'Burundi Franc'],
  ['BMD', 'BM', 'Bermuda', 'Bermudian Dollar'],
  ['BND', 'BN', 'Brunei Darussalam', 'Brunei Dollar'],
  ['BOB', 'BO', 'Bolivia', 'Boliviano'],
  ['BRL', 'BR', 'Brazil', 'Brazilian Real'],
  ['BSD', 'BS', 'Bahamas', 'Bahamian Dollar'],
  ['BTN', 'BT', 'Bhutan', 'Ngultrum'],
  ['BWP', 'BW', 'Botswana', 'Pula'],
  ['BYN', 'BY', 'Belarus', 'Belarusian Ruble'],
  ['BZD', 'BZ', 'Belize', 'Belize Dollar'],
  ['CAD', 'CA', 'Canada', 'Canadian Dollar'],
  ['CDF', 'CD', 'Congo (Democratic Republic)', 'Congolese Franc'],
  ['CHF', 'CH', 'Switzerland', 'Swiss Franc'],
  ['CLP', 'CL', 'Chile', 'Chilean Peso'],
  ['CNY', 'CN', 'China', 'Yuan Renminbi'],
  ['COP', 'CO', 'Colombia', 'Colombian Peso'],
  ['CRC', 'CR', 'Costa Rica', 'Costa Rican Colon'],
  ['CUP', 'CU', 'Cuba', 'Cuban Peso'],
  ['CVE', 'CV', 'Cabo Verde', 'Cabo Verde Escudo'],
  ['CZK', 'CZ', 'Czechia', 'Czech Koruna'],
  ['DJF', 'DJ', 'Djibouti', 'Djibouti Franc'],
  ['DKK', 'DK', 'Denmark', 'Danish Krone'],
  ['DOP', 'DO', 'Dominican Republic', 'Dominican Peso'],
  ['DZD', 'DZ', 'Algeria', 'Algerian Dinar'],
  ['EGP', 'EG', 'Egypt', 'Egyptian Pound'],
  ['ERN', 'ER', 'Eritrea', 'Nakfa'],
  ['ETB', 'ET', 'Ethiopia', 'Ethiopian Birr'],
  ['EUR', 'EU', 'Euro area', 'Euro'],
  ['FJD', 'FJ', 'Fiji', 'Fiji Dollar'],
  ['FKP', 'FK', 'Falkland Islands', 'Falkland Islands Pound'],
  ['GBP', 'GB', 'United Kingdom', 'Pound Sterling'],
  ['GEL', 'GE', 'Georgia', 'Lari'],
  ['GHS', 'GH', 'Ghana', 'Ghana Cedi'],
  ['GIP', 'GI', 'Gibraltar', 'Gibraltar Pound'],
  ['GMD', 'GM', 'Gambia', 'Dalasi'],
  ['GNF', 'GN', 'Guinea', 'Guinean Franc'],
  ['GTQ', 'GT', 'Guatemala', 'Quetzal'],
  ['GYD', 'GY', 'Guyana', 'Guyana Dollar'],
  ['HKD', 'HK', 'Hong Kong', 'Hong Kong Dollar'],
  ['HNL', 'HN', 'Honduras', 'Lempira'],
  ['HTG', 'HT', 'Haiti', 'Gourde'],
  ['HUF', 'HU', 'Hungary', 'Forint'],
  ['IDR', 'ID', 'Indonesia', 'Rupiah'],
  ['ILS', 'IL', 'Israel', 'New Israeli Sheqel'],
  ['INR', 'IN', 'India', 'Indian Rupee'],
  ['IQD', 'IQ', 'Iraq', 'Iraqi Dinar'],
  ['IRR', 'IR', 'Iran', 'Iranian Rial'],
  ['ISK', 'IS', 'Iceland', 'Iceland Krona'],
  ['JMD', 'JM', 'Jamaica', 'Jamaican Dollar'],
  ['JOD', 'JO', 'Jordan', 'Jordanian Dinar'],
  ['JPY', 'JP', 'Japan', 'Yen'],
  ['KES', 'KE', 'Kenya', 'Kenyan Shilling'],
  ['KGS', 'KG', 'Kyrgyzstan', 'Som'],
  ['KHR', 'KH', 'Cambodia', 'Riel'],
  ['KMF', 'KM', 'Comoros', 'Comorian Franc'],
  ['KPW', 'KP', 'North Korea', 'North Korean Won'],
  ['KRW', 'KR', 'South Korea', 'Won'],
  ['KWD', 'KW', 'Kuwait', 'Kuwaiti Dinar'],
  ['KYD', 'KY', 'Cayman Islands', 'Cayman Islands Dollar'],
  ['KZT', 'KZ', 'Kazakhstan', 'Tenge'],
  ['LAK', 'LA', 'Laos', 'Lao Kip'],
  ['LBP', 'LB', 'Lebanon', 'Lebanese Pound'],
  ['LKR', 'LK', 'Sri Lanka', 'Sri Lanka Rupee'],
  ['LRD', 'LR', 'Liberia', 'Liberian Dollar'],
  ['LSL', 'LS', 'Lesotho', 'Loti'],
  ['LYD', 'LY', 'Libya', 'Libyan Dinar'],
  ['MAD', 'MA', 'Morocco', 'Moroccan Dirham'],
  ['MDL', 'MD', 'Moldova', 'Moldovan Leu'],
  ['MGA', 'MG', 'Madagascar', 'Malagasy Ariary'],
  ['MKD', 'MK', 'North Macedonia', 'Denar'],
  ['MMK', 'MM', 'Myanmar', 'Kyat'],
  ['MNT', 'MN', 'Mongolia', 'Tugrik'],
  ['MOP', 'MO', 'Macao', 'Pataca'],
  ['MRU', 'MR', 'Mauritania', 'Ouguiya'],
  ['MUR', 'MU', 'Mauritius', 'Mauritius Rupee'],
  ['MVR', 'MV', 'Maldives', 'Rufiyaa'],
  ['MWK', 'MW', 'Malawi', 'Malawi Kwacha'],
  ['MXN', 'MX', 'Mexico', 'Mexican Peso'],
  ['MYR', 'MY', 'Malaysia', 'Malaysian Ringgit'],
  ['MZN', 'MZ', 'Mozambique', 'Mozambique Metical'],
  ['NAD', 'NA', 'Namibia', 'Namibia Dollar'],
  ['NGN', 'NG', 'Nigeria', 'Naira'],
  ['NIO', 'NI', 'Nicaragua', 'Cordoba Oro'],
  ['NOK', 'NO', 'Norway', 'Norwegian Krone'],
  ['NPR', 'NP', 'Nepal', 'Nepalese Rupee'],
  ['NZD', 'NZ', 'New Zealand', 'New Zealand Dollar'],
  ['OMR', 'OM', 'Oman', 'Rial Omani'],
  ['PAB', 'PA', 'Panama', 'Balboa'],
  ['PEN', 'PE', 'Peru', 'Sol'],
  ['PGK', 'PG', 'Papua New Guinea', 'Kina'],
  ['PHP', 'PH', 'Philippines', 'Philippine Peso'],
  ['PKR', 'PK', 'Pakistan', 'Pakistan Rupee'],
  ['PLN', 'PL', 'Poland', 'Zloty'],
  ['PYG', 'PY', 'Paraguay', 'Guarani'],
  ['QAR', 'QA', 'Qatar', 'Qatari Rial'],
  ['RON', 'RO', 'Romania', 'Romanian Leu'],
  ['RSD', 'RS', 'Serbia', 'Serbian Dinar'],
  ['RUB', 'RU', 'Russia', 'Russian Ruble'],
  ['RWF', 'RW', 'Rwanda', 'Rwanda Franc'],
  ['SAR', 'SA', 'Saudi Arabia', 'Saudi Riyal'],
  ['SBD', 'SB', 'Solomon Islands', 'Solomon Islands Dollar'],
  ['SCR', 'SC', 'Seychelles', 'Seychelles Rupee'],
  ['SDG', 'SD', 'Sudan', 'Sudanese Pound'],
  ['SEK', 'SE', 'Sweden', 'Swedish Krona'],
  ['SGD', 'SG', 'Singapore', 'Singapore Dollar'],
  ['SHP', 'SH', 'Saint Helena', 'Saint Helena Pound'],
  ['SLE', 'SL', 'Sierra Leone', 'Leone'],
  ['SOS', 'SO', 'Somalia', 'Somali Shilling'],
  ['SRD', 'SR', 'Suriname', 'Surinam Dollar'],
  ['SSP', 'SS', 'South Sudan', 'South Sudanese Pound'],
  ['STN', 'ST', 'Sao Tome and Principe', 'Dobra'],
  ['SVC', 'SV', 'El Salvador', 'El Salvador Colon'], // still in list one, though USD circulates
  ['SYP', 'SY', 'Syria', 'Syrian Pound'],
  ['SZL', 'SZ', 'Eswatini', 'Lilangeni'],
  ['THB', 'TH', 'Thailand', 'Baht'],
  ['TJS', 'TJ', 'Tajikistan', 'Somoni'],
  ['TMT', 'TM', 'Turkmenistan', 'Turkmenistan New Manat'],
  ['TND', 'TN', 'Tunisia', 'Tunisian Dinar'],
  ['TOP', 'TO', 'Tonga', "Pa'anga"],
  ['TRY', 'TR', 'Türkiye', 'Turkish Lira'],
  ['TTD', 'TT', 'Trinidad and Tobago', 'Trinidad and Tobago Dollar'],
  ['TWD', 'TW', 'Taiwan', 'New Taiwan Dollar'],
  ['TZS', 'TZ', 'Tanzania', 'Tanzanian Shilling'],
  ['UAH', 'UA', 'Ukraine', 'Hryvnia'],
  ['UGX', 'UG', 'Uganda', 'Uganda Shilling'],
  ['USD', 'US', 'United States', 'US Dollar'],
  ['UYU', 'UY', 'Uruguay', 'Peso Uruguayo'],
  ['UZS', 'UZ', 'Uzbekistan', 'Uzbekistan Sum'],
  // ISO names both VED and VES "Bolívar Soberano"; VED (2021 redenomination, "bolívar digital") is
  // named apart here so the two records can be told apart.
  ['VED', 'VE', 'Venezuela', 'Bolívar Digital'],
  ['VES', 'VE', 'Venezuela', 'Bolívar Soberano'],
  ['VND', 'VN', 'Viet Nam', 'Dong'],
  ['VUV', 'VU', 'Vanuatu', 'Vatu'],
  ['WST', 'WS', 'Samoa', 'Tala'],
  ['XAF', 'CM', 'Cameroon', 'CFA Franc BEAC'], // BEAC has its seat in Yaoundé
  ['XCD', 'KN', 'Saint Kitts and Nevis', 'East Caribbean Dollar'], // ECCB has its seat in Basseterre
  ['XCG', 'CW', 'Curaçao', 'Caribbean Guilder'], // CBCS has its seat in Willemstad
  ['XDR', 'ZZ', 'International Monetary Fund', 'SDR (Special Drawing Right)'],
  ['XOF', 'SN', 'Senegal', 'CFA Franc BCEAO'], // BCEAO has its seat in Dakar
  // The issuer, IEOM, sits in Paris, but FR uses the euro; French Polynesia (Papeete hosts IEOM's main
  // agency) is where the CFP franc circulates most, and it is the first territory ISO lists for XPF.
  ['XPF', 'PF', 'French Polynesia', 'CFP Franc'],
  ['YER', 'YE', 'Yemen', 'Yemeni Rial'],
  ['ZAR', 'ZA', 'South Africa', 'Rand'],
  ['ZMW', 'ZM', 'Zambia', 'Zambian Kwacha'],
  ['ZWG', 'ZW', 'Zimbabwe', 'Zimbabwe Gold'],
];

export const METALS = ['XAU', 'XAG', 'XPT', 'XPD'] as const;

// D19: a metal has no country. ISO 4217 lists each under an entity of its own, "ZZ08_Gold" and so on:
// ZZ (user-assigned in ISO 3166, as for the IMF's XDR) and that entity's name; the metal's name.
const METAL_ROWS: readonly (readonly [(typeof METALS)[number], string, string, string])[] = [
  ['XAG', 'ZZ', 'ZZ11_Silver', 'Silver'],
  ['XAU', 'ZZ', 'ZZ08_Gold', 'Gold'],
  ['XPD', 'ZZ', 'ZZ09_Palladium', 'Palladium'],
  ['XPT', 'ZZ', 'ZZ10_Platinum', 'Platinum'],
];

export const ACTIVE_CURRENCIES: readonly CurrencyInfo[] = Object.freeze(
  [...ACTIVE_ROWS, ...METAL_ROWS]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, countryCode, countryName, name]) => Object.freeze({ code, countryCode, countryName, name })),
);

/**
 * Defunct codes a central bank may still publish in its history. `until` is the last day the currency
 * was legal tender (end of any dual-circulation period) where that is well established; otherwise the
 * day before its successor took over.
 */
export const HISTORIC_CURRENCIES: readonly { code: string; name: string; until: string }[] = Object.freeze(
  (
    [
      // Euro area legacy currencies (euro cash from 2002 / accession date, then dual circulation)
      ['ATS', 'Austrian Schilling', '2002-02-28'],
      ['BEF', 'Belgian Franc', '2002-02-28'],
      ['DEM', 'Deutsche Mark', '2001-12-31'],
      ['ESP', 'Spanish Peseta', '2002-02-28'],
      ['FIM', 'Finnish Markka', '2002-02-28'],
      ['FRF', 'French Franc', '2002-02-17'],
      ['GRD', 'Greek Drachma', '2002-02-28'],
      ['IEP', 'Irish Pound', '2002-02-09'],
      ['ITL', 'Italian Lira', '2002-02-28'],
      ['LUF', 'Luxembourg Franc', '2002-02-28'],
      ['NLG', 'Netherlands Guilder', '2002-01-28'],
      ['PTE', 'Portuguese Escudo', '2002-02-28'],
      ['SIT', 'Slovenian Tolar', '2007-01-14'],
      ['CYP', 'Cyprus Pound', '2008-01-31'],
      ['MTL', 'Maltese Lira', '2008-01-31'],
      ['SKK', 'Slovak Koruna', '2009-01-16'],
      ['EEK', 'Estonian Kroon', '2011-01-14'],
      ['LVL', 'Latvian Lats', '2014-01-14'],
      ['LTL', 'Lithuanian Litas', '2015-01-15'],
      ['HRK', 'Croatian Kuna', '2023-01-14'],
      ['BGN', 'Bulgarian Lev', '2026-01-31'],
      ['XEU', 'European Currency Unit', '1998-12-31'], // converted 1:1 into EUR on 1999-01-01
      // Replacements and redenominations
      ['AFA', 'Afghani (old)', '2003-01-02'],
      ['ANG', 'Netherlands Antillean Guilder', '2025-06-30'], // replaced by XCG from 2025-03-31
      ['AZM', 'Azerbaijanian Manat (old)', '2006-12-31'],
      ['BGL', 'Bulgarian Lev (old)', '1999-12-31'],
      ['BYR', 'Belarusian Ruble (2000–2016)', '2016-12-31'],
      ['CSK', 'Czechoslovak Koruna', '1993-02-07'],
      ['CUC', 'Peso Convertible', '2021-06-30'], // shops stopped accepting it on 2021-07-01
      ['GHC', 'Cedi (old)', '2007-12-31'],
      ['MRO', 'Ouguiya (old)', '2018-06-30'],
      ['MZM', 'Mozambique Metical (old)', '2006-12-31'],
      ['PLZ', 'Zloty (old)', '1996-12-31'],
      ['ROL', 'Romanian Leu (old)', '2006-12-31'],
      ['RUR', 'Russian Ruble (old)', '1998-12-31'],
      ['SDD', 'Sudanese Dinar', '2007-06-30'],
      ['SLL', 'Leone (old)', '2023-12-31'], // replaced by SLE from 2022-07-01
      ['SRG', 'Surinam Guilder', '2003-12-31'],
      ['STD', 'Dobra (old)', '2018-06-30'],
      ['TMM', 'Turkmenistan Manat (old)', '2009-12-31'],
      ['TRL', 'Turkish Lira (old)', '2005-12-31'],
      ['VEB', 'Bolívar (old)', '2007-12-31'],
      ['VEF', 'Bolívar Fuerte', '2018-08-19'],
      ['YUM', 'Yugoslav Dinar', '2003-07-02'],
      ['ZMK', 'Zambian Kwacha (old)', '2013-06-30'],
      ['ZWL', 'Zimbabwe Dollar', '2024-04-30'], // replaced by ZWG from 2024-04-05
    ] as const
  ).map(([code, name, until]) => Object.freeze({ code, name, until })),
);

const ACTIVE_BY_CODE: ReadonlyMap<string, CurrencyInfo> = new Map(ACTIVE_CURRENCIES.map((c) => [c.code, c]));

const KNOWN_CODES: ReadonlySet<string> = new Set<string>([...ACTIVE_BY_CODE.keys(), ...HISTORIC_CURRENCIES.map((c) => c.code)]);

/** The record of an active currency, XDR or a metal; undefined otherwise. Expects an upper-case code. */
export function currencyInfo(code: string): CurrencyInfo | undefined {
  return ACTIVE_BY_CODE.get(code);
}

/** True for the codes Kurs quotes in blended rates: active ISO 4217 currencies, XDR and the metals. */
export function isActiveCurrency(code: string): boolean {
  return ACTIVE_BY_CODE.has(code);
}

/** True for any code ingest accepts as a real currency: active, historic or a precious metal. */
export function isKnownCode(code: string): boolean {
  return KNOWN_CODES.has(code);
}
