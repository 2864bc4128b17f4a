// Per-request metrics kept as plain numbers and handed to the Prometheus registry only when it is
// scraped. prom-client hashes the label set on every `inc` and `observe`: on a cached GET that was a
// tenth of the request's CPU (docs/performance.md). The exposition is the same as prom-client's own
// Counter and Histogram would give: the registry renders these objects like any other metric.
import type { Registry } from 'prom-client';

interface RouteTotals {
  readonly byStatus: Map<number, number>;
  /** Cumulative counts per bucket, as Prometheus wants them, filled in at scrape time. */
  readonly buckets: number[];
  sum: number;
  count: number;
}

type Labels = Record<string, string | number>;
interface Sample {
  labels: Labels;
  value: number;
  metricName?: string;
}

/** What the registry needs of a metric: its text is built from `get()` at scrape time. */
function metric(registry: Registry, name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]): void {
  registry.registerMetric({ name, help, type, get: async () => ({ name, help, type, values: values(), aggregator: 'sum' }) } as never);
}

export class RequestStats {
  /** method → route pattern → totals; nested maps, so counting builds no key string. */
  private readonly routes = new Map<string, Map<string, RouteTotals>>();
  private readonly points = new Map<string, number>();
  /** Answers given by the fast lane (fast-lane.ts), also counted in the totals above. */
  private fastLane = 0;

  constructor(private readonly bounds: readonly number[]) {}

  /** One answered request: its status and its time in seconds. */
  record(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.routes.get(method);
    if (!byRoute) this.routes.set(method, (byRoute = new Map()));
    let t = byRoute.get(route);
    if (!t) byRoute.set(route, (t = { byStatus: new Map(), buckets: this.bounds.map(() => 0), sum: 0, count: 0 }));
    t.byStatus.set(status, (t.byStatus.get(status) ?? 0) + 1);
    // Counted in the first bucket that holds it; made cumulative when scraped.
    for (let i = 0; i < this.bounds.length; i++) {
      if (seconds <= this.bounds[i]!) {
        t.buckets[i]!++;
        break;
      }
    }
    t.sum += seconds;
    t.count++;
  }

  servedByFastLane(): void {
    this.fastLane++;
  }

  charged(endpoint: string, points: number): void {
    this.points.set(endpoint, (this.points.get(endpoint) ?? 0) + points);
  }

  /** Registers kurs_http_requests_total, kurs_http_request_duration_seconds, kurs_points_charged_total
   *  and kurs_http_fast_lane_total. */
  register(registry: Registry): void {
    metric(registry, 'kurs_http_requests_total', 'HTTP responses by method, route pattern and status', 'counter', () =>
      this.each((method, route, t) => [...t.byStatus].map(([status, value]) => ({ labels: { method, route, status }, value }))),
    );
    metric(registry, 'kurs_http_request_duration_seconds', 'Time from request to response sent', 'histogram', () =>
      this.each((method, route, t): Sample[] => {
        let cumulative = 0;
        const name = 'kurs_http_request_duration_seconds';
        const buckets = this.bounds.map((le, i) => ({ labels: { le, method, route }, value: (cumulative += t.buckets[i]!), metricName: `${name}_bucket` }));
        return [
          ...buckets,
          { labels: { le: '+Inf', method, route }, value: t.count, metricName: `${name}_bucket` },
          { labels: { method, route }, value: t.sum, metricName: `${name}_sum` },
          { labels: { method, route }, value: t.count, metricName: `${name}_count` },
        ];
      }),
    );
    metric(registry, 'kurs_points_charged_total', 'API points charged, by endpoint', 'counter', () =>
      [...this.points].map(([endpoint, value]) => ({ labels: { endpoint }, value })),
    );
    metric(registry, 'kurs_http_fast_lane_total', 'Responses given by the fast lane, also counted in kurs_http_requests_total', 'counter', () => [{ labels: {}, value: this.fastLane }]);
  }

  private each(f: (method: string, route: string, t: RouteTotals) => Sample[]): Sample[] {
    return [...this.routes].flatMap(([method, byRoute]) => [...byRoute].flatMap(([route, t]) => f(method, route, t)));
  }
}
