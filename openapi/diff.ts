/**
 * Compares two OpenAPI documents structurally, after dereferencing: operations (method and path), their
 * parameters (name, in, required, schema), request and response bodies (JSON schemas: property sets, types,
 * required lists, constraints) and the named component schemas. Each disagreement is one row naming where it
 * sits, e.g. `GET /resellers/v6/deals/{dealId} 200 .vendorName: only in a`.
 *
 * Independent of the catalogue: it compares two documents, whatever the project serves.
 */
import type { DifferenceKind, DocumentDiff, DocumentDifference, OpenApiDocument } from './diff/diff-shapes';
import type { Schema } from './openapi-objects';
import { diffOperation, operationsOf } from './diff/operation-diff';
import { diffSchema } from './diff/schema-diff';
import { readOpenApiDocument } from './read-document';

/** Both documents read and compared; `a` and `b` are their file names. */
export async function diffFiles(a: string, b: string): Promise<DocumentDiff> {
  const [docA, docB] = await Promise.all([readOpenApiDocument<OpenApiDocument>(a), readOpenApiDocument<OpenApiDocument>(b)]);
  const opsA = operationsOf(docA);
  const opsB = operationsOf(docB);
  const common = [...opsA.keys()].filter((k) => opsB.has(k)).length;
  return { a, b, operations: { a: opsA.size, b: opsB.size, common }, differences: diffDocuments(docA, docB) };
}

/** Every disagreement of two dereferenced documents: operations, then component schemas. */
export function diffDocuments(a: OpenApiDocument, b: OpenApiDocument): DocumentDifference[] {
  const out: DocumentDifference[] = [];
  const opsA = operationsOf(a);
  const opsB = operationsOf(b);
  for (const [key, opA] of opsA) {
    const opB = opsB.get(key);
    if (!opB) out.push({ kind: 'operation', where: opA.label, detail: 'only in a' });
    else diffOperation(opA, opB, out);
  }
  for (const [key, opB] of opsB) if (!opsA.has(key)) out.push({ kind: 'operation', where: opB.label, detail: 'only in b' });
  diffComponents(a.components?.schemas ?? {}, b.components?.schemas ?? {}, out);
  return out;
}

function diffComponents(a: Record<string, Schema>, b: Record<string, Schema>, out: DocumentDifference[]): void {
  for (const name of Object.keys(a)) {
    const where = `components.schemas.${name}`;
    if (!(name in b)) out.push({ kind: 'schema', where, detail: 'only in a' });
    else diffSchema(a[name], b[name], { kind: 'schema', where }, out);
  }
  for (const name of Object.keys(b))
    if (!(name in a)) out.push({ kind: 'schema', where: `components.schemas.${name}`, detail: 'only in b' });
}

/** The diff as text: a heading, the counts by kind, one line per difference. */
export function diffText(d: DocumentDiff): string {
  const counts = new Map<DifferenceKind, number>();
  for (const x of d.differences) counts.set(x.kind, (counts.get(x.kind) ?? 0) + 1);
  const byKind = [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
  return [
    `openapi diff: a = ${d.a} (${d.operations.a} operations), b = ${d.b} (${d.operations.b} operations), ${d.operations.common} in both`,
    `  ${d.differences.length} differences${byKind ? ` (${byKind})` : ''}${d.differences.length ? ':' : ''}`,
    ...d.differences.map((x) => `  ${x.where}: ${x.detail}`),
  ].join('\n');
}
