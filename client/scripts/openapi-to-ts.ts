// OpenAPI 3.1 → TypeScript: one named type per /v1 answer and request body, from the JSON schemas
// of the document Kurs serves. Small on purpose: it covers the schema forms Kurs's document uses
// (objects, maps, arrays, unions, literals, $ref) and fails loudly on anything else.

type Schema = {
  $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; required?: string[];
  additionalProperties?: boolean | Schema; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[];
  enum?: unknown[]; const?: unknown; description?: string;
};
type Operation = { summary?: string; requestBody?: { content?: Record<string, { schema?: Schema }> }; responses: Record<string, { content?: Record<string, { schema?: Schema }> }> };
export type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

/** Names for the spec's endpoints; others get one from their path (`/v1/timeseries/{base}` → `TimeseriesResponse`, `/v1/exchange-days` → `ExchangeDaysResponse`). */
const NAMES: Record<string, string> = {
  'GET /v1/{base_currency}/latest': 'Latest',
  'GET /v1/rate/{base_currency}/{target_currency}': 'Rate',
  'GET /v1/rate/{base_currency}/{target_currency}/sources': 'Sources',
  'POST /v1/rates/convert': 'Convert',
  'GET /v1/bank/{bank_code}': 'Bank',
  'GET /v1/banks': 'Banks',
  'GET /v1/currencies': 'Currencies',
  'GET /v1/usage': 'Usage',
};

const pascal = (path: string) => path.split('/').filter((p) => p && p !== 'v1').map((p) => p.replace(/[{}]/g, '')).map((p) => p[0]!.toUpperCase() + p.slice(1).replace(/[_-](\w)/g, (_, c: string) => c.toUpperCase())).join('');

const refName = (ref: string) => ref.replace(/^#\/components\/schemas\//, '').replace(/#$/, '');
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

export function toType(s: Schema, indent = ''): string {
  const inner = `${indent}  `;
  if (s.$ref) return refName(s.$ref) === 'Error' ? 'ErrorBody' : refName(s.$ref);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = s.anyOf ?? s.oneOf;
  if (union) return [...new Set(union.map((u) => toType(u, indent)))].join(' | ');
  if (Array.isArray(s.type)) return s.type.map((t) => toType({ ...s, type: t }, indent)).join(' | ');
  switch (s.type) {
    case 'string': return 'string';
    case 'number': case 'integer': return 'number';
    case 'boolean': return 'boolean';
    case 'null': return 'null';
    case 'array': return `Array<${s.items ? toType(s.items, indent) : 'unknown'}>`;
    case 'object': case undefined: {
      const props = Object.entries(s.properties ?? {});
      const extra = typeof s.additionalProperties === 'object' ? toType(s.additionalProperties, inner) : undefined;
      if (props.length === 0) return extra ? `Record<string, ${extra}>` : s.type === 'object' ? 'Record<string, unknown>' : 'unknown';
      const required = new Set(s.required ?? []);
      const lines = props.map(([name, p]) => `${inner}${p.description ? `/** ${p.description.replace(/\*\//g, '*\\/')} */\n${inner}` : ''}${key(name)}${required.has(name) ? '' : '?'}: ${toType(p, inner)};`);
      const body = `{\n${lines.join('\n')}\n${indent}}`;
      return extra ? `${body} & Record<string, ${extra}>` : body;
    }
    default: throw new Error(`openapi-to-ts: schema type ${JSON.stringify(s.type)} is not handled`);
  }
}

/** The whole generated module, deterministic for one document. */
export function generate(doc: Document): string {
  const out = ['// Generated from /openapi.json by `npm run client:types`; do not edit. A test fails when it is stale.', ''];
  const error = doc.components?.schemas?.Error;
  if (error) out.push('/** The error envelope (D1). */', `export type ErrorBody = ${toType(error)};`, '');
  for (const [path, ops] of Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b))) {
    if (!path.startsWith('/v1/')) continue;
    for (const [method, op] of Object.entries(ops)) {
      const id = `${method.toUpperCase()} ${path}`;
      const name = NAMES[id] ?? pascal(path);
      const ok = op.responses['200']?.content?.['application/json']?.schema;
      if (ok) out.push(`/** ${id}: ${op.summary ?? ''} */`, `export type ${name}Response = ${toType(ok)};`, '');
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) out.push(`/** The body of ${id}. */`, `export type ${name}Request = ${toType(body)};`, '');
    }
  }
  return out.join('\n');
}
