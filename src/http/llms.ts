// /llms.txt and /llms-full.txt (llmstxt.org), written from the two sources a person reads: the
// OpenAPI document (every operation, its parameters and an example call) and docs/api.md (the
// interface and the rules a client meets: envelope, errors, points, caching, history, usage).
// Built from those at the first request, so the text cannot drift from either.
import { type Prices, RANGE_DAYS, rangeUnits } from './charged.js';

/** The prices' type under the name the /llms.txt code and its tests know. */
export type { Prices as PointsCost } from './charged.js';
import { ERROR_STATUS } from './errors.js';

interface Parameter { name: string; in: 'path' | 'query' | 'header'; required?: boolean; description?: string; example?: unknown }
interface Operation { summary?: string; description?: string; parameters?: Parameter[]; security?: unknown[]; requestBody?: { content?: Record<string, { example?: unknown }> }; responses?: Record<string, { description?: string }> }
export interface OpenApiDoc { info: { title: string; description?: string }; paths: Record<string, Record<string, Operation>> }

/** Stands for the server's own address until a request says what it is. */
export const BASE_PLACEHOLDER = '{{KURS_BASE_URL}}';

const HIDDEN = /^\/(docs|admin)\b/;

/** The address docs/api.md's examples are written for; the served text has the server's own. */
const DOC_BASE = /https?:\/\/(?:127\.0\.0\.1|localhost):8080\b/g;

/** docs/api.md without its title: written for clients, so it holds no admin API and no server
 *  internals. Its examples are made to run as pasted: this server's address, and `$KURS_API_KEY`
 *  as everywhere else in these files. */
export function apiRules(apiDoc: string): string {
  if (!apiDoc.startsWith('# ')) throw new Error('docs/api.md does not start with its "# " title');
  return apiDoc.slice(apiDoc.indexOf('\n') + 1).trim().replace(DOC_BASE, BASE_PLACEHOLDER).replaceAll('"Authorization: $KEY"', '"Authorization: $KURS_API_KEY"');
}

function operations(doc: OpenApiDoc): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths)
    .filter(([path]) => !HIDDEN.test(path))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
}

/** A curl line with the document's own examples filled in. */
export function exampleCall(method: string, path: string, op: Operation): string {
  const params = op.parameters ?? [];
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => String(params.find((p) => p.name === name)?.example ?? name));
  const query = params.filter((p) => p.in === 'query' && p.example !== undefined).map((p) => `${p.name}=${encodeURIComponent(String(p.example))}`);
  const keyed = (op.security ?? []).length > 0 ? ` -H "Authorization: $KURS_API_KEY"` : '';
  const body = op.requestBody?.content?.['application/json']?.example;
  const send = body === undefined ? '' : ` -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`;
  const verb = method === 'GET' ? '' : ` -X ${method}`;
  return `curl${verb}${keyed}${send} '${BASE_PLACEHOLDER}${url}${query.length ? `?${query.join('&')}` : ''}'`;
}

const oneLine = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

function header(doc: OpenApiDoc): string[] {
  return [
    `# ${doc.info.title}`,
    '',
    `> ${oneLine(doc.info.description)}`,
    '',
    '## Authentication',
    '',
    'Send the API key as the bare `Authorization` header (no `Bearer` prefix), or as the `api_key` query parameter when no header is sent. '
      + 'Keys look like `kurs_` followed by 32 letters and digits. Endpoints marked "no key" need none. In the examples, `$KURS_API_KEY` holds the key.',
    '',
  ];
}

function errorCodes(): string[] {
  return ['## Error codes', '', 'Every error body is `{"code": <status>, "message": "…", "error": "<code>"}`, and 422s add `details: [{field, message}]`.', '',
    ...Object.entries(ERROR_STATUS).map(([code, status]) => `- \`${code}\`: ${status}`), ''];
}


const points = (n: number) => `${n} point${n === 1 ? '' : 's'}`;

/** How answers are charged, with this server's prices (KURS_POINTS_COST): ranges by length (D16). */
function pointsRules(cost: Prices): string[] {
  return ['## Points', '', `Every 2xx answer under \`/v1\` costs points (\`/v1/{base_currency}/latest\` ${points(cost.latest)} here; \`/v1/usage\` is free). Errors and 304 Not Modified cost nothing. `
    + 'Every answer to a valid key carries `X-Points-Cost` (what this request cost) and `X-Points-Remaining` (the balance). '
    + 'A 402 `points_exhausted` means the balance is too low; a 429 `rate_limited` carries `Retry-After` in seconds. '
    + 'Send a rate answer\'s `ETag` back as `If-None-Match` to get a free 304 when nothing changed.', '',
    `Ranges are priced by their length (D16): \`/v1/timeseries/{base_currency}\` and \`/v1/bank/{bank_code}/timeseries\` cost ${points(cost.timeseries)}, \`/v1/fluctuation/{base_currency}\` ${points(cost.fluctuation)}, `
    + `per started ${RANGE_DAYS} days of \`start..end\` (both days included): ${RANGE_DAYS} days are charged once, ${RANGE_DAYS + 1} days twice, a year ${rangeUnits('2025-01-01', '2025-12-31')} times, 1999-01-04 to 2026-04-13 ${rangeUnits('1999-01-04', '2026-04-13')} times. `
    + '`symbols`, `group` and `format` change the size of the answer, not its price. The whole price is charged before the first byte, so a client that hangs up mid-stream has paid. '
    + `One past day (\`/v1/{base_currency}/{date}\`) costs ${points(cost.history)}; \`date\` on the rate, convert and bank endpoints costs what they cost without it.`, ''];
}

/** The short file: what Kurs is, how to authenticate, every endpoint with an example, errors, points
 *  (ranges' pricing included). */
export function llmsTxt(doc: OpenApiDoc, cost: Prices): string {
  const lines = [...header(doc), '## Endpoints', ''];
  for (const { method, path, op } of operations(doc)) {
    const keyed = (op.security ?? []).length > 0 ? '' : ' (no key)';
    lines.push(`- ${method} ${path}${keyed}: ${oneLine(op.summary)}`, `  \`${exampleCall(method, path, op)}\``);
  }
  lines.push('', ...errorCodes(), ...pointsRules(cost), '## More', '',
    `- [Full reference for agents](${BASE_PLACEHOLDER}/llms-full.txt): every parameter and status, and the rules in full`,
    `- [OpenAPI document](${BASE_PLACEHOLDER}/openapi.json)`, `- [Interactive docs](${BASE_PLACEHOLDER}/docs)`, '');
  return lines.join('\n');
}

/** The long file: the short one's parts, each operation in detail, and docs/api.md. */
export function llmsFullTxt(doc: OpenApiDoc, apiDoc: string, cost: Prices): string {
  const lines = [...header(doc), '## Endpoints', ''];
  for (const { method, path, op } of operations(doc)) {
    lines.push(`### ${method} ${path}`, '', oneLine(op.summary) + '.', ...(op.description ? ['', oneLine(op.description)] : []), '');
    lines.push((op.security ?? []).length > 0 ? 'Needs a key.' : 'No key needed.', '');
    for (const p of op.parameters ?? []) {
      if (p.in === 'header') continue;
      lines.push(`- \`${p.name}\` (${p.in}${p.required ? ', required' : ''}): ${oneLine(p.description)}${p.example !== undefined ? ` Example: \`${String(p.example)}\`.` : ''}`);
    }
    const statuses = Object.entries(op.responses ?? {}).map(([status, r]) => `- ${status}: ${oneLine(r.description)}`);
    lines.push(...(op.parameters?.length ? [''] : []), 'Example:', '', '```sh', exampleCall(method, path, op), '```', '', 'Answers:', '', ...statuses, '');
  }
  lines.push(...errorCodes(), ...pointsRules(cost), '# The interface and its rules, from docs/api.md', '', apiRules(apiDoc), '');
  return lines.join('\n');
}
