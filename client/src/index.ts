// kurs-client: a typed client for the Kurs exchange-rate API. Zero dependencies; runs wherever
// `fetch` does (Node ≥ 20, browsers, Deno, Bun).
export { KursClient, type Amount, type KursClientOptions, type Out } from './client.js';
export { KursError, type FieldProblem } from './errors.js';
export { parseExact, type Exact } from './exact-json.js';
export type { CallOptions } from './transport.js';
export type * from './history.js';
export type * from './types.gen.js';
