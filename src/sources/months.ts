// The one month-name table adapters read dates with: English, Spanish and French names, written in
// any case, with or without accents, in full or (English, Spanish) as their first three letters.

export type MonthLanguage = 'en' | 'es' | 'fr';

const NAMES: Readonly<Record<MonthLanguage, readonly string[]>> = {
  en: ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  // French first three letters repeat (juin, juillet): full names only.
  fr: ['janvier', 'fevrier', 'mars', 'avril', 'mai', 'juin', 'juillet', 'aout', 'septembre', 'octobre', 'novembre', 'decembre'],
};

const plain = (text: string) => text.trim().toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');

// Spanish also writes September "setiembre" (Peru, Uruguay…), "Set" for short (BCRP's `01.Set.26`).
const SPANISH_VARIANTS: Readonly<Record<string, string>> = { setiembre: 'septiembre', set: 'sep' };

/** 1–12 for a month's name in `language`; 0 when `text` is not one (so `|| fail(…)` reads well). */
export function monthNumber(text: string, language: MonthLanguage = 'en'): number {
  const name = language === 'es' ? (SPANISH_VARIANTS[plain(text)] ?? plain(text)) : plain(text);
  const names = NAMES[language];
  const full = names.indexOf(name);
  if (full >= 0) return full + 1;
  return language === 'fr' || name.length !== 3 ? 0 : names.findIndex((n) => n.startsWith(name)) + 1;
}

/** The month's name as feeds write it in query strings and headings: `Jan` (short) or `January`. */
export function monthName(month: number, language: MonthLanguage = 'en', form: 'short' | 'full' = 'short'): string {
  const name = NAMES[language][month - 1];
  if (name === undefined) throw new RangeError(`no month ${month}`);
  const text = form === 'short' ? name.slice(0, 3) : name;
  return text[0]!.toUpperCase() + text.slice(1);
}
