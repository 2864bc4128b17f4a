// Each route is declared once, with Fastify. This table learns every route as it registers (an
// onRoute hook) and answers "which methods does this path take?" for the 405 answers and for CORS
// preflights, so a new route can never answer 404 to a wrong method because a list was not updated.
import type { FastifyInstance, RouteOptions } from 'fastify';

interface Entry {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/v1/:base/latest` → `^/v1/[^/]+/latest/?$`; `*` (static assets) matches the rest of the path. */
function patternOf(url: string): RegExp {
  const body = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body.replace(/\/$/, '')}/?$`);
}

export class RouteTable {
  private readonly byUrl = new Map<string, Entry>();

  /** Must run before any route is added: routes registered earlier are not seen. */
  install(app: FastifyInstance): void {
    app.addHook('onRoute', (route: RouteOptions) => this.add(route.url, route.method));
  }

  add(url: string, method: string | string[]): void {
    const entry = this.byUrl.get(url) ?? { pattern: patternOf(url), methods: new Set<string>() };
    for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m.toUpperCase());
    this.byUrl.set(url, entry);
  }

  /** Methods the path takes, in a stable order; empty when no route matches it. */
  readonly allowed = (path: string): string[] => {
    const found = new Set<string>();
    for (const entry of this.byUrl.values()) if (entry.pattern.test(path)) for (const m of entry.methods) found.add(m);
    return [...found].sort();
  };
}
