// The yardstick of issue 25: the blended EUR crosses of every day against the ECB's own history file,
// which is independent of the blend's method (the ECB's figures are one input among many; the
// measures ask whether the blend stays where the ECB's own figures of that day and the next put the
// market). Pure: the published file and a function giving the blend of a day in, figures out.
import { readFileSync } from 'node:fs';

/** date → currency → figure (units per 1 EUR, the ECB's direction), as published. */
export type EcbFile = Map<string, Map<string, string>>;

export function readEcbFile(path: string): EcbFile {
  const lines = readFileSync(path, 'utf8').trim().split(/\r?\n/);
  const header = lines[0]!.split(',');
  const out: EcbFile = new Map();
  for (const line of lines.slice(1).reverse()) {
    const cells = line.split(',');
    const day = new Map<string, string>();
    header.forEach((code, i) => {
      if (i > 0 && code !== '' && cells[i] !== 'N/A' && cells[i] !== '') day.set(code, cells[i]!);
    });
    out.set(cells[0]!, day);
  }
  return out;
}

/** The currencies the ECB quoted on its first day and still quotes: the 123,390 pairs. */
export const EIGHTEEN: ReadonlySet<string> = new Set(['USD', 'JPY', 'CZK', 'DKK', 'GBP', 'HUF', 'PLN', 'SEK', 'CHF', 'ISK', 'NOK', 'AUD', 'CAD', 'HKD', 'KRW', 'NZD', 'SGD', 'ZAR']);

/** Blends every day of `from..to` over date-sorted rows, handing each day's blend to `visit`. The day
 *  blend, its input window and date arithmetic are passed in, so this module stays a measure. */
export function blendEachDay<R extends { date: string }, T>(
  rows: R[], from: string, to: string,
  blendOf: (rows: R[], day: string) => T,
  window: (day: string) => { from: string; to: string }, addDays: (day: string, n: number) => string,
  visit: (day: string, rates: T) => void,
): void {
  let lo = 0;
  let hi = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const w = window(day);
    while (lo < rows.length && rows[lo]!.date < w.from) lo++;
    while (hi < rows.length && rows[hi]!.date <= w.to) hi++;
    visit(day, blendOf(rows.slice(lo, hi), day));
  }
}

/** Every day's EUR crosses (units per 1 EUR), over the days whose blend has EUR. */
export function blendedEur<R extends { date: string }>(
  rows: R[], from: string, to: string,
  blendOf: (rows: R[], day: string) => ReadonlyMap<string, { perUsd: string }>,
  window: (day: string) => { from: string; to: string }, addDays: (day: string, n: number) => string,
): Map<string, Map<string, number>> {
  const eur = new Map<string, Map<string, number>>();
  blendEachDay(rows, from, to, blendOf, window, addDays, (day, rates) => {
    const e = rates.get('EUR');
    if (!e) return;
    const m = new Map<string, number>();
    for (const [code, r] of rates) m.set(code, Number(r.perUsd) / Number(e.perUsd));
    eur.set(day, m);
  });
  return eur;
}

/** Units of a currency per 1 EUR on a day from the blend, or undefined where it has none. */
export type BlendedEur = (day: string, code: string) => number | undefined;

export interface Yardstick {
  pairs: number;
  /** Pairs within 0.5% of the span between the ECB's figure of the day and of its next day. */
  withinSpan: number;
  share: number;
  /** Pairs more than 2% from the ECB's figure of the day, worst first; `inSpan` where the blend is
   *  still within 0.5% of the span to the ECB's next figure (the market moved that far). */
  beyond2: { day: string; code: string; blended: number; ecb: number; next: number; off: number; inSpan: boolean }[];
  /** Blended figures more than 3% from both neighbouring blended days where the ECB moved < 1%. */
  spikes: { day: string; code: string; blended: number }[];
  /** Days the blended EUR/DKK left ERM II's band (7.46038 ± 2.25%). */
  dkkOutside: { day: string; blended: number }[];
}

const SPAN_TOLERANCE = 0.005;
const FAR = 0.02;
const SPIKE = 0.03;
const CALM = 0.01;
const DKK_CENTRAL = 7.46038;
const DKK_BAND = 0.0225;

/** `codes`: which currencies count (those the blend quotes on the day, D14). */
export function measure(ecb: EcbFile, blended: BlendedEur, quoted: (day: string, code: string) => boolean): Yardstick {
  const days = [...ecb.keys()];
  let pairs = 0;
  let withinSpan = 0;
  const beyond2: Yardstick['beyond2'] = [];
  days.forEach((day, i) => {
    const next = ecb.get(days[i + 1] ?? day)!;
    for (const [code, text] of ecb.get(day)!) {
      if (!quoted(day, code)) continue;
      const b = blended(day, code);
      const e = Number(text);
      pairs++;
      if (b === undefined) continue;
      const n = Number(next.get(code) ?? text);
      const lo = Math.min(e, n) * (1 - SPAN_TOLERANCE);
      const hi = Math.max(e, n) * (1 + SPAN_TOLERANCE);
      const inSpan = b >= lo && b <= hi;
      if (inSpan) withinSpan++;
      const off = b / e - 1;
      if (Math.abs(off) > FAR) beyond2.push({ day, code, blended: b, ecb: e, next: n, off, inSpan });
    }
  });
  beyond2.sort((a, b) => Math.abs(b.off) - Math.abs(a.off));
  return { pairs, withinSpan, share: withinSpan / pairs, beyond2, spikes: spikesOf(ecb, blended, quoted), dkkOutside: dkkBand(calendar(days[0]!, days[days.length - 1]!), blended) };
}

function* calendar(from: string, to: string): Generator<string> {
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) yield new Date(t).toISOString().slice(0, 10);
}

/** Calendar days on which a blended cross is more than 3% from the blend of both the day before and
 *  the day after, while the ECB's figures in force on those three days moved less than 1%. */
function spikesOf(ecb: EcbFile, blended: BlendedEur, quoted: (day: string, code: string) => boolean): Yardstick['spikes'] {
  const ecbDays = [...ecb.keys()];
  const days = [...calendar(ecbDays[0]!, ecbDays[ecbDays.length - 1]!)];
  const out: Yardstick['spikes'] = [];
  let k = 0;
  const inForce: (Map<string, string> | undefined)[] = days.map((d) => {
    while (k + 1 < ecbDays.length && ecbDays[k + 1]! <= d) k++;
    return ecbDays[k]! <= d ? ecb.get(ecbDays[k]!) : undefined;
  });
  for (let i = 1; i + 1 < days.length; i++) {
    const [before, now, after] = [inForce[i - 1], inForce[i], inForce[i + 1]];
    if (!before || !now || !after) continue;
    for (const code of now.keys()) {
      const day = days[i]!;
      if (!quoted(day, code)) continue;
      const b = blended(day, code);
      const bp = blended(days[i - 1]!, code);
      const bn = blended(days[i + 1]!, code);
      if (b === undefined || bp === undefined || bn === undefined) continue;
      const e = [before, now, after].map((m) => Number(m.get(code) ?? now.get(code)));
      const calm = Math.max(...e) / Math.min(...e) - 1 < CALM;
      if (calm && Math.abs(b / bp - 1) > SPIKE && Math.abs(b / bn - 1) > SPIKE) out.push({ day, code, blended: b });
    }
  }
  return out;
}

/** Every calendar day from `from` to `to` on which the blended EUR/DKK is outside ERM II's band. */
export function dkkBand(days: Iterable<string>, blended: BlendedEur): Yardstick['dkkOutside'] {
  const out: Yardstick['dkkOutside'] = [];
  for (const day of days) {
    const b = blended(day, 'DKK');
    if (b !== undefined && Math.abs(b / DKK_CENTRAL - 1) > DKK_BAND) out.push({ day, blended: b });
  }
  return out;
}
