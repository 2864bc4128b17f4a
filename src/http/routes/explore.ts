// `GET /explore`: the rates explorer, one self-contained page (public/explore/: HTML, CSS and
// script inlined at boot). Its Content-Security-Policy lets it talk to this server only and run
// only its own script, so nothing is loaded from, or sent to, another host. Its icon is inline (a
// `data:` image), so the browser asks no /favicon.ico that would log a 404 (issue 34).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { RatesTable } from '../../rates/table.js';
import { RANGE_DAYS } from '../charged.js';
import type { AppDeps } from '../deps.js';

const DIR = new URL('../../../public/explore/', import.meta.url);

export function explorePage(): { html: string; csp: string } {
  const read = (name: string) => readFileSync(new URL(name, DIR), 'utf8');
  const script = read('explore.js');
  const style = read('explore.css');
  // The range rule from its one definition (charged.ts), before the script goes in.
  const html = read('explore.html')
    .replace('/*RANGE_DAYS*/', String(RANGE_DAYS))
    .replace('/*STYLE*/', () => style)
    .replace('/*SCRIPT*/', () => script);
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const csp = `default-src 'none'; connect-src 'self'; img-src 'self' data:; script-src ${hash(script)}; style-src ${hash(style)}; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`;
  return { html, csp };
}

/** Each currency's newest figure day, `EUR=2026-08-19 USD=…`: the page opens on the newest 30 days
 *  its currencies have, which on a server with old data (the seed alone) is not the 30 up to today. */
export const newestDays = (rates: RatesTable): string => rates.codes.map((c) => `${c}=${rates.get(c)!.bankUpdate.slice(0, 10)}`).join(' ');

export function exploreRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'market'>): void {
  const page = explorePage();
  // One page per rates table: a new one comes with new data, and only then do the days change.
  const pages = new WeakMap<RatesTable, string>();
  app.get('/explore', async (_request, reply) => {
    const { rates } = deps.market.current;
    let html = pages.get(rates);
    if (html === undefined) {
      html = page.html.replace('/*NEWEST*/', () => newestDays(rates));
      pages.set(rates, html);
    }
    return reply.type('text/html; charset=utf-8').header('content-security-policy', page.csp).header('cache-control', 'no-cache').send(html);
  });
}
