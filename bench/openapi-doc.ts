/** A large synthetic OpenAPI 3.0 document (about 1.2 MB): 1200 operations with $ref chains, for import timings. */
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

export const LARGE_DOC_OPERATIONS = 1200;

export function writeLargeOpenApi(file: string): void {
  const schemas: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < LARGE_DOC_OPERATIONS; i++) {
    schemas[`Thing${i}`] = {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string' },
        next: i > 0 ? { $ref: `#/components/schemas/Leaf${i}` } : { type: 'string' },
        note: { type: 'string', nullable: true, description: 'x'.repeat(400) },
      },
    };
    schemas[`Leaf${i}`] = { type: 'object', properties: { v: { type: 'integer' } } };
    paths[`/resellers/v6/things${i}/{id}`] = {
      get: {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/Thing${i}` } } } },
        },
      },
    };
  }
  writeFileSync(file, stringify({ openapi: '3.0.3', info: { title: 'big', version: '1' }, paths, components: { schemas } }));
}
