/**
 * `npm run openapi` writes contracts/openapi.json from the catalogue.
 * `npm run openapi -- check <file>` imports an OpenAPI document and prints coverage and conflicts.
 * `npm run openapi -- diff <a> <b> [--json]` lists where two OpenAPI documents disagree (exit 0; 2 when one cannot be read).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { buildOpenApi, serialise } from '../openapi/export';
import { loadOpenApi } from '../openapi/import';
import { diffFiles, diffText } from '../openapi/diff';
import { UnreadableDocument } from '../openapi/read-document';

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
  console.error(`openapi: unknown command "${cmd}"; expected export (default), check <file> or diff <a> <b> [--json]`);
  return 2;
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
