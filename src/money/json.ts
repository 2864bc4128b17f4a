// JSON with exact numbers: a `Num` is written as its decimal text, so no value ever passes through
// binary-float formatting on its way out (D6).

export class Num {
  constructor(readonly text: string) {}
}

export type JsonValue = string | number | boolean | null | Num | JsonValue[] | { [key: string]: JsonValue | undefined };

export function stringify(value: JsonValue): string {
  if (value instanceof Num) return value.text;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stringify).join(',')}]`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined) parts.push(`${JSON.stringify(k)}:${stringify(v)}`);
  }
  return `{${parts.join(',')}}`;
}
