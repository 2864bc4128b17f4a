import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ACTIVE_CURRENCIES,
  HISTORIC_CURRENCIES,
  METALS,
  currencyInfo,
  isActiveCurrency,
  isKnownCode,
} from './iso4217.js';

test('active list has a sane size and well-formed, unique records', () => {
  assert.ok(ACTIVE_CURRENCIES.length >= 150 && ACTIVE_CURRENCIES.length <= 170, `${ACTIVE_CURRENCIES.length}`);
  const codes = ACTIVE_CURRENCIES.map((c) => c.code);
  assert.equal(new Set(codes).size, codes.length, 'duplicate active code');
  assert.deepEqual(codes, [...codes].sort(), 'active list sorted by code');
  for (const c of ACTIVE_CURRENCIES) {
    assert.match(c.code, /^[A-Z]{3}$/, c.code);
    assert.match(c.countryCode, /^[A-Z]{2}$/, `${c.code} ${c.countryCode}`);
    assert.ok(c.countryName.trim().length > 0 && c.countryName === c.countryName.trim(), c.code);
    assert.ok(c.name.trim().length > 0 && c.name === c.name.trim(), c.code);
    assert.equal(currencyInfo(c.code), c);
  }
});

test('historic list is well formed and disjoint from active codes and metals', () => {
  const codes = HISTORIC_CURRENCIES.map((c) => c.code);
  assert.equal(new Set(codes).size, codes.length, 'duplicate historic code');
  for (const h of HISTORIC_CURRENCIES) {
    assert.match(h.code, /^[A-Z]{3}$/, h.code);
    assert.match(h.until, /^\d{4}-\d{2}-\d{2}$/, h.code);
    assert.equal(new Date(`${h.until}T00:00:00Z`).toISOString().slice(0, 10), h.until, `${h.code} date`);
    assert.ok(h.name.length > 0, h.code);
    assert.equal(isActiveCurrency(h.code), false, `${h.code} is historic but active`);
    assert.ok(!(METALS as readonly string[]).includes(h.code));
  }
  for (const code of ['HRK', 'BGN', 'LTL', 'LVL', 'EEK', 'SKK', 'SIT', 'CYP', 'MTL', 'DEM', 'FRF', 'ITL',
    'ESP', 'PTE', 'NLG', 'BEF', 'ATS', 'FIM', 'IEP', 'GRD', 'LUF', 'ZWL', 'SLL', 'ANG', 'VEF', 'MRO', 'STD',
    'BYR', 'TRL', 'ROL', 'RUR', 'CSK', 'YUM', 'GHC', 'ZMK', 'SDD', 'MZM', 'AZM', 'TMM', 'VEB', 'CUC']) {
    assert.ok(codes.includes(code), `${code} missing from historic list`);
  }
});

test('D4 examples for shared currencies', () => {
  assert.deepEqual(currencyInfo('EUR'), { code: 'EUR', countryCode: 'EU', countryName: 'Euro area', name: 'Euro' });
  assert.deepEqual(currencyInfo('XDR'), {
    code: 'XDR',
    countryCode: 'ZZ',
    countryName: 'International Monetary Fund',
    name: 'SDR (Special Drawing Right)',
  });
  assert.equal(currencyInfo('XOF')?.countryCode, 'SN');
  assert.equal(currencyInfo('XAF')?.countryCode, 'CM');
  assert.equal(currencyInfo('XCD')?.countryCode, 'KN');
  assert.equal(currencyInfo('XPF')?.countryCode, 'PF');
  assert.equal(currencyInfo('XCG')?.countryCode, 'CW');
  assert.equal(currencyInfo('USD')?.name, 'US Dollar');
});

test('defunct currencies are known but not active', () => {
  for (const code of ['HRK', 'BGN', 'ANG', 'SLL', 'ZWL', 'CUC', 'DEM', 'LTL']) {
    assert.equal(isActiveCurrency(code), false, code);
    assert.equal(currencyInfo(code), undefined, code);
    assert.equal(isKnownCode(code), true, code);
  }
});

test('metals are quoted like currencies, each under the entity ISO 4217 lists it by (D19)', () => {
  assert.deepEqual([...METALS], ['XAU', 'XAG', 'XPT', 'XPD']);
  for (const code of METALS) {
    assert.equal(isActiveCurrency(code), true, code);
    assert.equal(isKnownCode(code), true, code);
    assert.ok(ACTIVE_CURRENCIES.includes(currencyInfo(code)!), code);
  }
  assert.deepEqual(currencyInfo('XAU'), { code: 'XAU', countryCode: 'ZZ', countryName: 'ZZ08_Gold', name: 'Gold' });
  assert.deepEqual(currencyInfo('XAG'), { code: 'XAG', countryCode: 'ZZ', countryName: 'ZZ11_Silver', name: 'Silver' });
  assert.deepEqual(currencyInfo('XPT'), { code: 'XPT', countryCode: 'ZZ', countryName: 'ZZ10_Platinum', name: 'Platinum' });
  assert.deepEqual(currencyInfo('XPD'), { code: 'XPD', countryCode: 'ZZ', countryName: 'ZZ09_Palladium', name: 'Palladium' });
  // 156 currencies (ISO list one's active ones and XDR) and the four metals.
  assert.equal(ACTIVE_CURRENCIES.length, 160);
});

test('fund, testing and unit-of-account codes are neither active nor known', () => {
  for (const code of ['XTS', 'XXX', 'BOV', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW', 'CHE', 'CHW', 'XSU', 'XUA',
    'XBA', 'XBB', 'XBC', 'XBD', 'ABC', '']) {
    assert.equal(isActiveCurrency(code), false, code);
    assert.equal(isKnownCode(code), false, code);
  }
});

test('lookups expect upper case', () => {
  assert.equal(isActiveCurrency('usd'), false);
  assert.equal(currencyInfo('eur'), undefined);
});

test('recent successor currencies are active', () => {
  for (const code of ['VES', 'VED', 'ZWG', 'SLE', 'MRU', 'STN', 'CUP', 'XCG', 'BYN', 'XDR']) {
    assert.equal(isActiveCurrency(code), true, code);
  }
});

test('spot check of important currencies and their countries', () => {
  const expected: Record<string, [string, string]> = {
    USD: ['US', 'United States'],
    JPY: ['JP', 'Japan'],
    GBP: ['GB', 'United Kingdom'],
    CHF: ['CH', 'Switzerland'],
    CNY: ['CN', 'China'],
    AUD: ['AU', 'Australia'],
    NZD: ['NZ', 'New Zealand'],
    CAD: ['CA', 'Canada'],
    INR: ['IN', 'India'],
    DKK: ['DK', 'Denmark'],
    NOK: ['NO', 'Norway'],
    SEK: ['SE', 'Sweden'],
    ZAR: ['ZA', 'South Africa'],
    ILS: ['IL', 'Israel'],
    PLN: ['PL', 'Poland'],
    CZK: ['CZ', 'Czechia'],
    HUF: ['HU', 'Hungary'],
    RON: ['RO', 'Romania'],
    TRY: ['TR', 'Türkiye'],
    RUB: ['RU', 'Russia'],
    BRL: ['BR', 'Brazil'],
    MXN: ['MX', 'Mexico'],
    KRW: ['KR', 'South Korea'],
    HKD: ['HK', 'Hong Kong'],
    SGD: ['SG', 'Singapore'],
    UAH: ['UA', 'Ukraine'],
    ISK: ['IS', 'Iceland'],
  };
  for (const [code, [countryCode, countryName]] of Object.entries(expected)) {
    const info = currencyInfo(code);
    assert.ok(info, `${code} not active`);
    assert.equal(isActiveCurrency(code), true, code);
    assert.equal(isKnownCode(code), true, code);
    assert.equal(info.countryCode, countryCode, code);
    assert.equal(info.countryName, countryName, code);
  }
});
