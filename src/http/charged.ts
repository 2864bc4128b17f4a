// What an answer costs, in one place (issue 37 item 1). An endpoint's price is the app's
// `pointsCost` entry for its endpoint id (KURS_POINTS_COST; 1 point each by default, config.ts),
// times the answer's units; the one rule for units is here: a range costs a unit per started
// RANGE_DAYS days of start..end (D16). A route names its endpoint id once, in its config, and never
// a price: sendCharged and sendRange read it from there; the fast lane, the OpenAPI text, /llms.txt,
// MCP's tool text and the explorer read the rule from here.
import type { EndpointId } from '../config.js';

export type Prices = Record<EndpointId, number>;

/** D16: a range is priced per started block of this many days. */
export const RANGE_DAYS = 31;

/** D16: one unit per started RANGE_DAYS days of start..end, both days included. */
export function rangeUnits(start: string, end: string): number {
  const days = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000 + 1;
  return Math.ceil(days / RANGE_DAYS);
}

/** What an answer of `endpoint` costs: its price times its units (0 units: nothing was answered). */
export function priceOf(prices: Prices, endpoint: EndpointId, units = 1): number {
  return prices[endpoint] * units;
}

/** The endpoint id a route declared (`config.endpoint`); a charged route without one is a bug. */
export function endpointOf(config: { endpoint?: EndpointId }): EndpointId {
  if (config.endpoint === undefined) throw new Error('a charged route must declare config.endpoint');
  return config.endpoint;
}
