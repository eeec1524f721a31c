/**
 * `npm run openapi` writes contracts/openapi.json from the catalogue.
 * `npm run openapi -- check <file>` imports an OpenAPI document and prints coverage and conflicts.
 * `npm run openapi -- diff <a> <b> [--json]` lists where two OpenAPI documents disagree (exit 0; 2 when one cannot be read).
 * `npm run openapi -- constraints [<yaml> <json>]` writes catalogue/request-constraints-data.ts: what either published
 * form allows in each operation's request (default: VENDOR_OPENAPI and VENDOR_OPENAPI_JSON).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { buildOpenApi, serialise } from '../openapi/export';
import { loadOpenApi } from '../openapi/import';
import { diffFiles, diffText } from '../openapi/diff';
import { UnreadableDocument } from '../openapi/read-document';
import { disagreeingLocations, enforcedOnly, formConstraints, mergeConstraints } from '../openapi/document-constraints';
import { resellerOperations } from '../catalogue';

export const OPENAPI_FILE = 'contracts/openapi.json';

async function main(): Promise<number> {
  const [cmd, file] = process.argv.slice(2);
  if (!cmd || cmd === 'export') {
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    writeFileSync(OPENAPI_FILE, serialise(buildOpenApi(version)));
    console.log(`openapi: wrote ${OPENAPI_FILE}`);
    return 0;
  }
  if (cmd === 'check') {
    if (!file) {
      console.error('openapi: usage: npm run openapi -- check <file.yaml|file.json>');
      return 2;
    }
    const started = performance.now();
    const c = await loadOpenApi(file);
    const cov = c.coverage();
    console.log(`openapi: ${file} (OpenAPI ${cov.openapiVersion}) loaded in ${(performance.now() - started).toFixed(0)} ms`);
    console.log(`  documented operations: ${cov.documentedOperations}; mapped to the catalogue: ${cov.mapped.length}`);
    console.log(
      `  catalogue operations without a documented 2xx schema (${cov.catalogueWithoutSchema.length}): ${cov.catalogueWithoutSchema.join(', ') || 'none'}`,
    );
    console.log(
      `  documented operations absent from the catalogue (${cov.documentedNotInCatalogue.length}): ${cov.documentedNotInCatalogue.join(', ') || 'none'}`,
    );
    for (const f of c.findings()) console.log(`  finding ${f.id}: ${f.observed} (${f.evidence})`);
    const defects = c.defects();
    console.log(
      `  document defects: ${defects.length} (examples that do not match their own schema, schemas requiring a name they do not declare)${defects.length ? ':' : ''}`,
    );
    for (const d of defects)
      console.log(`    ${d.where}: ${d.errors.slice(0, 3).join('; ')}${d.errors.length > 3 ? `; ... ${d.errors.length - 3} more` : ''}`);
    return 0;
  }
  if (cmd === 'diff') return diff(process.argv.slice(3));
  if (cmd === 'constraints') return constraints(process.argv.slice(3));
  console.error(`openapi: unknown command "${cmd}"; expected export (default), check <file> or diff <a> <b> [--json]`);
  return 2;
}

export const CONSTRAINTS_FILE = 'catalogue/request-constraints-data.ts';

/** `constraints [<yaml> <json>]`: the merge of both forms' request constraints, per operation, as the catalogue's data. */
async function constraints(args: string[]): Promise<number> {
  const files = args.length ? args : [process.env.VENDOR_OPENAPI, process.env.VENDOR_OPENAPI_JSON].filter((f): f is string => !!f);
  if (files.length !== 2) {
    console.error(
      'openapi: usage: npm run openapi -- constraints <reseller-api.yaml> <reseller-api.json> (or VENDOR_OPENAPI and VENDOR_OPENAPI_JSON)',
    );
    return 2;
  }
  const forms = await Promise.all(files.map((f) => loadOpenApi(f)));
  const data: Record<string, unknown> = {};
  const disagree: Record<string, string[]> = {};
  for (const op of resellerOperations) {
    const sets = forms.map((c) => formConstraints(c, op.id));
    const merged = mergeConstraints(sets);
    if (merged) data[op.id] = enforcedOnly(merged);
    const at = disagreeingLocations(sets);
    if (at.length) disagree[op.id] = at;
  }
  const text = [
    '/* eslint-disable max-lines -- data written by `npm run openapi -- constraints` */',
    '/**',
    ' * Written by `npm run openapi -- constraints <yaml> <json>` (scripts/openapi.ts): per operation, what either published',
    ' * form of the document allows in a request (catalogue/request-constraints.ts says how the forms are merged). Facts',
    ' * of the document, held to both forms by tests/openapi/request-schemas.spec.ts; edit by regenerating.',
    ' */',
    `export const REQUEST_CONSTRAINTS_DATA = ${JSON.stringify(data, null, 2)};`,
    '',
  ].join('\n');
  await writeFormatted(CONSTRAINTS_FILE, text);
  const disagreement = [
    '/**',
    ' * Written by `npm run openapi -- constraints <yaml> <json>` (scripts/openapi.ts): per operation, the locations of its',
    ' * request where the two published forms constrain it differently (openapi/document-constraints.ts',
    ' * disagreeingLocations): a value the catalogue allows there may be one a form refuses. Held to both forms by',
    ' * tests/openapi/request-schemas.spec.ts; edit by regenerating.',
    ' */',
    `export const FORMS_DISAGREE_AT: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(disagree, null, 2)};`,
    '',
  ].join('\n');
  await writeFormatted(DISAGREEMENT_FILE, disagreement);
  console.log(`openapi: wrote ${CONSTRAINTS_FILE} (${Object.keys(data).length} operations) and ${DISAGREEMENT_FILE}`);
  return 0;
}

export const DISAGREEMENT_FILE = 'catalogue/forms-disagree-data.ts';

async function writeFormatted(file: string, text: string): Promise<void> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
}

/** `diff <a> <b> [--json]`: a difference is information (exit 0); a document that cannot be read exits 2. */
async function diff(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const files = args.filter((x) => x !== '--json');
  if (files.length !== 2) {
    console.error(`openapi: usage: npm run openapi -- diff <a.yaml|a.json> <b.yaml|b.json> [--json]; received ${files.length} file(s)`);
    return 2;
  }
  try {
    const d = await diffFiles(files[0] as string, files[1] as string);
    console.log(json ? JSON.stringify(d, null, 2) : diffText(d));
    return 0;
  } catch (e) {
    if (!(e instanceof UnreadableDocument)) throw e;
    console.error(`openapi: ${e.message}; give two OpenAPI 3.x documents (YAML or JSON)`);
    return 2;
  }
}

main()
  .then((c) => process.exit(c))
  .catch((e: Error) => {
    console.error(`openapi: ${e.message}`);
    process.exit(1);
  });
