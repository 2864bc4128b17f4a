// Each route is declared once, with Fastify. This table learns every route as it registers (an
// onRoute hook) and answers "which methods does this path take?" for the 405 answers and for CORS
// preflights, so a new route can never answer 404 to a wrong method because a list was not updated.
import type { FastifyInstance, RouteOptions } from 'fastify';

interface Entry {
  matches: (path: string) => boolean;
  methods: Set<string>;
}

/** One segment's test: `:name` any non-empty text, `:name(^re$)` that pattern (Fastify's regex
 *  parameters, e.g. the date of `/v1/:base/:date`), anything else itself. */
function segmentTest(part: string): (segment: string) => boolean {
  const regex = /^:\w+\((.*)\)$/.exec(part);
  if (regex) {
    const re = new RegExp(regex[1]!);
    return (segment) => segment !== '' && re.test(segment);
  }
  if (part.startsWith(':')) return (segment) => segment !== '';
  return (segment) => segment === part;
}

/** `/v1/:base/latest` matches `/v1/EUR/latest` and `/v1/EUR/latest/`; `*` (static assets) matches
 *  the rest of the path. Segment by segment, so a parameter's pattern never spans a `/`. */
function matcherOf(url: string): (path: string) => boolean {
  const parts = url.replace(/\/$/, '').split('/');
  const rest = parts[parts.length - 1] === '*';
  const tests = (rest ? parts.slice(0, -1) : parts).map(segmentTest);
  return (path) => {
    const segments = path.replace(/\/$/, '').split('/');
    if (rest ? segments.length < tests.length : segments.length !== tests.length) return false;
    return tests.every((t, i) => t(segments[i]!));
  };
}

export class RouteTable {
  private readonly byUrl = new Map<string, Entry>();

  /** Must run before any route is added: routes registered earlier are not seen. */
  install(app: FastifyInstance): void {
    app.addHook('onRoute', (route: RouteOptions) => this.add(route.url, route.method));
  }

  add(url: string, method: string | string[]): void {
    const entry = this.byUrl.get(url) ?? { matches: matcherOf(url), methods: new Set<string>() };
    for (const m of Array.isArray(method) ? method : [method]) entry.methods.add(m.toUpperCase());
    this.byUrl.set(url, entry);
  }

  /** Methods the path takes, in a stable order; empty when no route matches it. */
  readonly allowed = (path: string): string[] => {
    const found = new Set<string>();
    for (const entry of this.byUrl.values()) if (entry.matches(path)) for (const m of entry.methods) found.add(m);
    return [...found].sort();
  };
}
