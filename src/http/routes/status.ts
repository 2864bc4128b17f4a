// `GET /status`: the operator's page, no key needed. Per source the same health `kurs sources`
// shows, plus freshness and coverage from the current rates table. Rendered at most every few
// seconds: the page is public, so a burst of visitors costs one health query, not one each.
import type { FastifyInstance } from 'fastify';
import { sourceStatuses } from '../../ingest/health.js';
import { sourceState } from '../../ingest/source-state.js';
import { redactUrl } from '../../sources/http.js';
import { VERSION } from '../../version.js';
import type { AppDeps } from '../deps.js';
import { renderStatus, type StatusRow } from '../status-page.js';

const RENDER_EVERY_MS = 5_000;

export function statusRoutes(app: FastifyInstance, deps: AppDeps): void {
  const startedAt = deps.now().getTime();
  let cached: { at: number; html: string } | undefined;

  const render = async (now: Date): Promise<string> => {
    const today = now.toISOString().slice(0, 10);
    const bySource = new Map(deps.sources.map((s) => [s.code, s]));
    const rows: StatusRow[] = sourceStatuses(deps.sources, await deps.store.sourceHealth(), now).map((s) => {
      const source = bySource.get(s.source)!;
      const { fresh, state } = sourceState(source, s, today, deps.market.graceDays);
      const lastError = s.last_error === null ? null : redactUrl(s.last_error);
      return { ...s, last_error: lastError, country: source.countryName, fresh, state, ...(source.attribution ? { attribution: source.attribution } : {}) };
    });
    const { rates } = deps.market.current;
    const fresh = rates.codes.filter((c) => rates.isFresh(c, today));
    return renderStatus({
      version: VERSION,
      uptimeSeconds: Math.max(0, (now.getTime() - startedAt) / 1000),
      generatedAt: now.toISOString().slice(0, 19).replace('T', ' '),
      newestPublication: rates.newestUpdate,
      today,
      ingest: deps.ingest !== false,
      currencies: { fresh: fresh.length, quoted: rates.size, stale: rates.codes.filter((c) => !rates.isFresh(c, today)) },
      rows,
    });
  };

  app.get('/status', async (_request, reply) => {
    const now = deps.now();
    if (!cached || now.getTime() - cached.at >= RENDER_EVERY_MS || now.getTime() < cached.at) cached = { at: now.getTime(), html: await render(now) };
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(cached.html);
  });
}
