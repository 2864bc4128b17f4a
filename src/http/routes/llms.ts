// `GET /llms.txt` and `GET /llms-full.txt`: Kurs described for AI agents, no key needed. Written at
// the first request from the OpenAPI document, docs/api.md and this server's prices (src/http/llms.ts);
// the examples carry the address the request came to, so they work as pasted.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Prices } from '../charged.js';
import { BASE_PLACEHOLDER, llmsFullTxt, llmsTxt, type OpenApiDoc } from '../llms.js';

/** Shipped in the package (`files` in package.json), since the server reads it. */
export const API_DOC_FILE = new URL('../../../docs/api.md', import.meta.url);

export function llmsRoutes(app: FastifyInstance, document: () => OpenApiDoc, cost: Prices, apiDoc: URL = API_DOC_FILE): void {
  let texts: { short: string; full: string } | undefined;
  const built = () => (texts ??= { short: llmsTxt(document(), cost), full: llmsFullTxt(document(), readFileSync(apiDoc, 'utf8'), cost) });
  for (const [url, pick] of [['/llms.txt', 'short'], ['/llms-full.txt', 'full']] as const) {
    app.get(url, async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(built()[pick].replaceAll(BASE_PLACEHOLDER, `${request.protocol}://${request.host}`)),
    );
  }
}
