// The market model's estimate of one rate at one moment (docs/blending.md, "The market model"). The
// rate is a random walk in trading time, each figure a reading of it at its fixing moment with its own
// variance. A forward Kalman filter over the readings of the days before and of the day screens each
// figure against what the readings before it showed (the witness): one too far from it is a `jump`
// unless another source shows the same move or nothing fixed with or after it contradicts it. The
// estimate is a two-sided smoother at the reference moment over each source's newest figure, so a
// reading fixed nearer the moment screens off those fixed further from it (they are not independent
// readings of the same market, as inverse variance alone would count them).
// Pure: numbers in, numbers out; it knows nothing of sources beyond a group name.

/** How many standard deviations from what the market showed a figure must be to be screened… */
export const JUMP_Z = 5;
/** …and how far at least: within 2% the weights deal with a dissenter (it fades, below). */
export const MIN_JUMP = Math.log(1.02);
/** A dissenter's variance grows with (distance / (AGREEMENT_SD × its deviation))²: a Cauchy step. */
export const AGREEMENT_SD = 3;
/** Readings this many trading hours apart or less can corroborate or contradict each other. */
const PEER_HOURS = 24;
/** A reading fixed up to an hour before another counts as fixed with it (fixing hours are rounded). */
const SAME_TIME_HOURS = 1;

export interface Reading {
  /** Fixing moment, trading hours from the epoch (hours.ts). */
  hours: number;
  /** ln of the figure. */
  y: number;
  /** Variance of `y` as a reading of the market at its own moment. */
  variance: number;
  /** Readings of one group (one source, or sources relaying one fixing) never vouch for each other. */
  group: string;
}

/** Why a reading does not count: a publisher's error, a level the market has left, or a move
 *  shown after the moment the estimate stands for. */
export type Screen = false | 'jump' | 'superseded' | 'later';

/** A move the readings showed: when, from which level (and its variance), first shown by which group. */
interface Move {
  at: number;
  level: number;
  variance: number;
  group: string;
}

export interface Track {
  /** ln of the estimate at the reference moment. */
  estimate: number;
  variance: number;
  /** Each reading's share of the estimate (they sum to 1; 0 for a screened one). */
  weights: number[];
  screens: Screen[];
}

/**
 * The estimate at `reference` (trading hours) from readings sorted by `hours`; `q` is the market's
 * variance per trading hour. A reading further than JUMP_Z deviations and MIN_JUMP from the market
 * as the readings before it showed is a move when another group fixed with it or after it shows the
 * same move, or when none of them stays at the old level; otherwise it is a `jump`. A move is part
 * of the estimate only if it was shown by the reference moment (one shown after it is `later`, the
 * next day's): it restarts the walk at the new level, and readings at the old level fixed up to a
 * day before it are `superseded`. A reading nearer than that fades as a dissenter: its variance
 * grows with (distance / (AGREEMENT_SD × deviation))².
 */
export function track(readings: readonly Reading[], q: number, reference: number): Track {
  const n = readings.length;
  const screens: Screen[] = new Array(n).fill(false);
  const effective = new Float64Array(n);
  const resets = new Uint8Array(n);
  let x = 0;
  let p = Infinity;
  let last = readings[0]?.hours ?? reference;
  const moves: Move[] = [];
  for (let i = 0; i < n; i++) {
    const r = readings[i]!;
    if (p !== Infinity) p += q * (r.hours - last);
    last = r.hours;
    const v = r.y - x;
    const s = p + r.variance;
    let fade = 1;
    if (p !== Infinity && Math.abs(v) > MIN_JUMP && Math.abs(v) > JUMP_Z * Math.sqrt(s)) {
      const verdict = judge(readings, i, x, p, q, moves);
      // A move shown only after the moment the blend stands for is not part of it (the next day's).
      if (verdict !== 'move' || r.hours > reference) {
        screens[i] = verdict === 'move' ? 'later' : verdict;
        continue;
      }
      moves.push({ at: r.hours, level: x, variance: p, group: r.group });
      resets[i] = 1;
      p = Infinity;
    } else if (p !== Infinity) {
      fade = 1 + (v / (AGREEMENT_SD * Math.sqrt(s))) ** 2;
    }
    effective[i] = r.variance * fade;
    const k = p === Infinity ? 1 : p / (p + effective[i]!);
    x += k * v;
    p = p === Infinity ? effective[i]! : (1 - k) * p;
  }
  supersede(readings, screens, moves);
  return smooth(readings, screens, resets, effective, q, reference);
}

/** Whether a far reading is a move, a publisher's `jump`, or a figure at a level already left. */
function judge(readings: readonly Reading[], i: number, x: number, p: number, q: number, moves: readonly Move[]): 'move' | 'jump' | 'superseded' {
  const r = readings[i]!;
  const apart = (a: Reading, b: Reading) => Math.abs(a.y - b.y) > JUMP_Z * Math.sqrt(a.variance + b.variance + q * Math.abs(a.hours - b.hours));
  // A figure back at the level of a move believed within the day before is a late relay of it.
  for (const m of moves) {
    if (m.group !== r.group && r.hours - m.at <= PEER_HOURS && Math.abs(r.y - m.level) <= JUMP_Z * Math.sqrt(r.variance + m.variance + q * (r.hours - m.at))) return 'superseded';
  }
  const side = Math.sign(r.y - x);
  let corroborated = false;
  let contradicted = false;
  for (let j = 0; j < readings.length; j++) {
    const o = readings[j]!;
    // Only figures fixed with it or later speak to it: one fixed earlier says only that the market
    // had not moved yet, or is already in the level it is judged against.
    if (j === i || o.group === r.group || o.hours < r.hours - SAME_TIME_HOURS || o.hours - r.hours > PEER_HOURS) continue;
    // Only a figure that itself left the old level, by more than its own error explains, vouches;
    // one at the old level that the market's move since cannot reconcile with it contradicts.
    const moved = Math.sign(o.y - x) === side && Math.abs(o.y - x) > MIN_JUMP && Math.abs(o.y - x) > JUMP_Z * Math.sqrt(p + o.variance);
    if (moved && !apart(r, o)) corroborated = true;
    else if (!moved && apart(r, o)) contradicted = true;
  }
  return corroborated || !contradicted ? 'move' : 'jump';
}

/** Readings fixed before a believed move (within PEER_HOURS) and still at the old level. */
function supersede(readings: readonly Reading[], screens: Screen[], moves: readonly Move[]): void {
  for (const m of moves) {
    readings.forEach((r, i) => {
      if (screens[i] || r.hours >= m.at || m.at - r.hours > PEER_HOURS) return;
      if (Math.abs(r.y - m.level) <= JUMP_Z * Math.sqrt(r.variance + m.variance)) screens[i] = 'superseded';
    });
  }
}

/**
 * The two-filter smoother at `at` over what counts: each group's newest reading not screened and not
 * fixed before the last believed move (the walk restarted there). A group's earlier readings served
 * as the witness that screened the others; in the estimate they add nothing to its newest, whose
 * error is largely the same as theirs (a source's bias, its moment, its rounding persist from one day
 * to the next), so a lone source is its own newest figure. The forward filter gives the state at `at`
 * from the readings fixed up to it, a backward filter from those after it, combined by inverse
 * variance; each reading's weight is its coefficient in that linear combination.
 */
function smooth(readings: readonly Reading[], screens: readonly Screen[], resets: Uint8Array, effective: Float64Array, q: number, at: number): Track {
  const n = readings.length;
  const counted = new Uint8Array(n);
  let since = -Infinity;
  for (let i = 0; i < n; i++) if (resets[i]) since = readings[i]!.hours;
  const groups = new Set<string>();
  for (let i = n - 1; i >= 0 && readings[i]!.hours >= since; i--) {
    if (screens[i] || groups.has(readings[i]!.group)) continue;
    groups.add(readings[i]!.group);
    counted[i] = 1;
  }
  const gains = new Float64Array(n);
  const weights = new Array<number>(n).fill(0);
  let split = 0;
  while (split < n && readings[split]!.hours <= at) split++;
  // Forward over the readings fixed up to `at`, backward from the last down to the first after it;
  // each carried to `at`. The state is Σ α_i y_i, α_i = k_i Π (1 − k_j) over the readings after i in
  // the pass's direction.
  const f = pass(readings, counted, effective, q, 0, split, 1, gains);
  const b = pass(readings, counted, effective, q, n - 1, split - 1, -1, gains);
  const pf = f.p === Infinity ? f.p : f.p + q * Math.abs(at - f.last);
  const pb = b.p === Infinity ? b.p : b.p + q * Math.abs(at - b.last);
  const [sf, sb] = pf === Infinity ? [0, 1] : pb === Infinity ? [1, 0] : [pb / (pf + pb), pf / (pf + pb)];
  weigh(counted, gains, split - 1, -1, -1, sf, weights);
  weigh(counted, gains, split, n, 1, sb, weights);
  const estimate = sf * f.x + sb * b.x;
  const variance = pf === Infinity ? pb : pb === Infinity ? pf : (pf * pb) / (pf + pb);
  return { estimate, variance, weights, screens: [...screens] };
}

/** One Kalman pass over the counted readings from index `from` to before `to` by `step` (forward or
 *  backward in time): the state at the last of them, its variance and moment; each gain into `gains`. */
function pass(readings: readonly Reading[], counted: Uint8Array, effective: Float64Array, q: number, from: number, to: number, step: 1 | -1, gains: Float64Array): { x: number; p: number; last: number } {
  let x = 0;
  let p = Infinity;
  let last = 0;
  for (let i = from; i !== to; i += step) {
    if (!counted[i]) continue;
    const r = readings[i]!;
    if (p !== Infinity) p += q * Math.abs(r.hours - last);
    last = r.hours;
    const k = p === Infinity ? 1 : p / (p + effective[i]!);
    x += k * (r.y - x);
    p = p === Infinity ? effective[i]! : (1 - k) * p;
    gains[i] = k;
  }
  return { x, p, last };
}

/** Each counted reading's weight, from the one nearest `at` outwards (index `from` to before `to` by
 *  `step`): its gain times what the readings nearer `at` left of the pass's `share`. */
function weigh(counted: Uint8Array, gains: Float64Array, from: number, to: number, step: 1 | -1, share: number, weights: number[]): void {
  let carry = share;
  for (let i = from; i !== to; i += step) {
    if (!counted[i]) continue;
    weights[i] = carry * gains[i]!;
    carry *= 1 - gains[i]!;
  }
}
