// `npm run client:types`: writes client/src/types.gen.ts from the OpenAPI document of the app as
// this checkout builds it (in process, a temp database). Run it after changing a route's schema.
import { writeFileSync } from 'node:fs';
import { testApp } from '../../test/helpers.js';
import { generate, type Document } from './openapi-to-ts.js';

export const TYPES_FILE = new URL('../src/types.gen.ts', import.meta.url);

export async function currentTypes(): Promise<string> {
  const t = await testApp();
  try {
    return generate(t.app.swagger() as unknown as Document);
  } finally {
    await t.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(TYPES_FILE, await currentTypes());
  console.log(`wrote ${TYPES_FILE.pathname}`);
}
