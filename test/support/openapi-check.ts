// Checks responses against the OpenAPI document: the operation's status (or its `5XX`), the media
// type, and the body against that response's schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
// testApp runs it on every response the suite produces, so the document cannot drift from the code.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type Doc = { paths: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };
type Media = { schema?: object };
type Operation = { responses: Record<string, { content?: Record<string, Media> }> };

export interface SeenResponse {
  method: string;
  /** Fastify's route pattern (`/v1/:base_currency/latest`), undefined when no route matched. */
  route: string | undefined;
  status: number;
  contentType: string | undefined;
  body: string;
}

const DOC_ID = 'kurs-openapi';

export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Doc) {
    this.ajv.addSchema({ $id: DOC_ID, components: doc.components ?? {} });
  }

  /** A problem description, or undefined when the response matches the document. */
  check(r: SeenResponse): string | undefined {
    const where = `${r.method} ${r.route ?? '(unmatched)'} → ${r.status}`;
    // A CORS preflight is answered before routing, with no body (src/http/cors.ts).
    if (r.route === undefined && r.method === 'OPTIONS' && r.status === 204 && r.body === '') return undefined;
    // Unmatched URLs are not operations, but their bodies are still the error envelope (D1).
    const schema = r.route === undefined ? { $ref: '#/components/schemas/Error' } : this.schemaFor(r, where);
    if (typeof schema === 'string') return schema;
    if (schema === undefined) return r.body === '' ? undefined : `${where}: a body where the document declares none`;
    let value: unknown;
    try {
      // JSON bodies are parsed; NDJSON (a range's lines, D15) is text like CSV.
      value = r.contentType !== undefined && /^application\/(.+\+)?json\b/.test(r.contentType) ? JSON.parse(r.body) : r.body;
    } catch {
      return `${where}: body is not JSON`;
    }
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(key.replaceAll('"#/components/', `"${DOC_ID}#/components/`)) as object);
      this.compiled.set(key, validate);
    }
    if (validate(value)) return undefined;
    return `${where}: ${this.ajv.errorsText(validate.errors)} in ${r.body.slice(0, 200)}`;
  }

  private schemaFor(r: SeenResponse, where: string): object | string | undefined {
    // A regex-constrained parameter (`:date(^…$)`) is plain `{date}` in the document.
    const path = r.route!.replace(/\(\^[^/]*\$\)/g, '').replace(/:(\w+)/g, '{$1}');
    // HEAD is the GET without its body (exposeHeadRoutes); the document lists the GET.
    const op = this.doc.paths[path]?.[r.method === 'HEAD' ? 'get' : r.method.toLowerCase()];
    if (!op) return `${where}: no such operation in the document`;
    const response = op.responses[String(r.status)] ?? op.responses[`${String(r.status)[0]}XX`] ?? op.responses.default;
    if (!response) return `${where}: status not documented (has ${Object.keys(op.responses).join(', ')})`;
    if (!response.content) return undefined;
    const media = (r.contentType ?? '').split(';')[0]!.trim();
    const content = response.content[media];
    if (!content) return `${where}: content type ${media || '(none)'} not documented (has ${Object.keys(response.content).join(', ')})`;
    return content.schema ?? {};
  }
}
