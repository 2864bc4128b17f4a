// Sources found relaying another's fixing of a currency: their figures identical on nearly every date
// both publish (measured in quality.ts, alongside the errors). Such a group counts as one reading, as
// SAME_FIXING's named groups do (fixing.ts). Pure.

/** A figure equal to another's to a tenth of a basis point is the same figure. */
export const SAME_FIGURE = 1e-5;
/** Two voices whose figures are the same on this share of the dates both publish relay one fixing… */
const RELAY_SHARE = 0.8;
/** …measured on at least this many figures. */
const RELAY_FIGURES = 20;

/** Groups of voices relaying one fixing, from how often their figures are identical. */
export function relaysOf(identical: ReadonlyMap<string, { same: number; all: number }>, members: ReadonlyMap<string, string[]>, sameFixing: Readonly<Record<string, string>>): Map<string, string> {
  const parent = new Map<string, string>();
  const root = (v: string): string => {
    let r = v;
    while (parent.has(r)) r = parent.get(r)!;
    return r;
  };
  for (const [pair, { same, all }] of identical) {
    if (all < RELAY_FIGURES || same < RELAY_SHARE * all) continue;
    const [a, b] = pair.split('\t').map(root);
    // The named group (SAME_FIXING's) or the first code names it.
    if (a !== b) (Object.values(sameFixing).includes(b!) || (!Object.values(sameFixing).includes(a!) && b! < a!) ? parent.set(a!, b!) : parent.set(b!, a!));
  }
  // Every member of a group, its root too, maps to the group's name.
  const out = new Map<string, string>();
  for (const voice of [...parent.keys(), ...parent.values()]) for (const source of members.get(voice) ?? [voice]) out.set(source, root(voice));
  return out;
}
