// A build as it crosses between threads (rates-worker.ts to rates-thread.ts). Structured clone keeps
// plain data, Maps and undefined keys, but a Decimal arrives as a bare object: each is sent as its
// exact text and made again with the same class, so a rate reads exactly as a build in the thread.
import type { BlendedRate } from '../blend/blend.js';
import type { Peg } from '../blend/pegs.js';
import { Decimal } from '../money/decimal.js';
import type { Built } from './build.js';

type WirePeg = Omit<Peg, 'rate'> & { rate: string };
export type WireRate = Omit<BlendedRate, 'perUsd' | 'peg'> & { perUsd: string; peg?: WirePeg };
export type WireBuilt = Omit<Built, 'rates'> & { rates: WireRate[] };

/** A build for posting: its Decimals as text (`toString` is exact: decimal.js never rounds on output
 *  unless asked, and reads its exponent form back). Keys keep their order and presence. */
export function toWire(built: Built): WireBuilt {
  const rates = [...built.rates.values()].map((r) => {
    // Spread over the same keys: each keeps its place, and an absent peg stays absent.
    const peg = 'peg' in r ? { peg: r.peg && { ...r.peg, rate: r.peg.rate.toString() } } : {};
    return { ...r, perUsd: r.perUsd.toString(), ...peg } as WireRate;
  });
  return { ...built, rates };
}

/** The build again, its Decimals made anew. */
export function fromWire(wire: WireBuilt): Built {
  const rates = new Map<string, BlendedRate>();
  for (const r of wire.rates) {
    const rate = { ...r, perUsd: new Decimal(r.perUsd) } as BlendedRate;
    if (r.peg) rate.peg = { ...r.peg, rate: new Decimal(r.peg.rate) };
    rates.set(r.currency, rate);
  }
  return { ...wire, rates };
}
