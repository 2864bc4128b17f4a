// `GET /explore`: the rates explorer, one self-contained page (public/explore/: HTML, CSS and
// script inlined at boot). Its Content-Security-Policy lets it talk to this server only and run
// only its own script, so nothing is loaded from, or sent to, another host.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const DIR = new URL('../../../public/explore/', import.meta.url);

export function explorePage(): { html: string; csp: string } {
  const read = (name: string) => readFileSync(new URL(name, DIR), 'utf8');
  const script = read('explore.js');
  const style = read('explore.css');
  const html = read('explore.html').replace('/*STYLE*/', () => style).replace('/*SCRIPT*/', () => script);
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const csp = `default-src 'none'; connect-src 'self'; img-src 'self'; script-src ${hash(script)}; style-src ${hash(style)}; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`;
  return { html, csp };
}

export function exploreRoutes(app: FastifyInstance): void {
  const page = explorePage();
  app.get('/explore', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', page.csp).header('cache-control', 'no-cache').send(page.html),
  );
}
