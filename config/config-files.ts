/**
 * The configuration inputs that are files (POLICY, OPENAPI), checked at start-up, before any request:
 * a file that is missing, unreadable or not what its variable needs is refused with a ConfigError.
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { policySchema, type Policy } from '../catalogue/policy';
import { createAjv } from '../clients/ajv';
import { ConfigError } from './config-error';

const POLICY_SHAPE = '{"findings":{"<finding id>":{"expected":"<observed value>","strict":true}}} (see policy/strict.example.json)';

/** The text of a configured file, or a ConfigError naming the variable. */
function readConfigured(variable: string, file: string, expected: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new ConfigError(`${variable}=${file} cannot be read (${code}); expected ${expected}: fix the path or unset ${variable}`);
  }
}

/** Edit distance (insertions, deletions, substitutions) between two names. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min((row[j] as number) + 1, (next[j - 1] as number) + 1, (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length] as number;
}

/** The valid name closest to a misspelt one (at most a third of its letters off), if any. */
export function nearest(name: string, valid: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const v of valid) {
    const d = distance(name.toLowerCase(), v.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [v, d];
  }
  return best;
}

const suggestion = (name: string, valid: readonly string[]): string => {
  const near = nearest(name, valid);
  return near ? `did you mean "${near}"?` : `valid: ${valid.join(', ')}`;
};

/** The schema node an ajv error's schemaPath points into, minus its last keyword. */
function schemaAt(schemaPath: string): Record<string, unknown> {
  const steps = schemaPath.replace(/^#\/?/, '').split('/').slice(0, -1);
  return steps.reduce<Record<string, unknown>>(
    (node, s) => node[s.replace(/~1/g, '/').replace(/~0/g, '~')] as Record<string, unknown>,
    policySchema,
  );
}

/** The value at a JSON pointer of the policy. */
function valueAtPointer(data: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((v, s) => (v as Record<string, unknown>)?.[s.replace(/~1/g, '/').replace(/~0/g, '~')], data);
}

/** One schema error as a user reads it: where, what is wrong, and the nearest valid name. */
function policyProblem(e: ErrorObject, data: unknown): string {
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, ' → ') : 'the top level';
  if (e.keyword === 'additionalProperty' || e.keyword === 'additionalProperties') {
    const name = String((e.params as { additionalProperty: string }).additionalProperty);
    const valid = Object.keys((schemaAt(e.schemaPath).properties ?? {}) as Record<string, unknown>);
    const what = e.instancePath === '/findings' ? 'finding id' : 'key';
    return `${where}: unknown ${what} "${name}" (${suggestion(name, valid)})`;
  }
  if (e.keyword === 'enum') {
    const value = String(valueAtPointer(data, e.instancePath));
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
    return `${where}: "${value}" is not an answer this finding records (${suggestion(value, allowed)})`;
  }
  return `${where}: ${e.message ?? 'invalid'}, received ${JSON.stringify(valueAtPointer(data, e.instancePath))}`;
}

let policyValidator: ReturnType<ReturnType<typeof createAjv>['compile']> | undefined;

/** The policy file named by POLICY, checked against its schema; {} without one. Throws ConfigError. */
export function readPolicy(file: string | undefined): Policy {
  if (!file) return {};
  const text = readConfigured('POLICY', file, `a JSON policy file like ${POLICY_SHAPE}`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`POLICY=${file} is not JSON (${(e as Error).message}); expected ${POLICY_SHAPE}`);
  }
  policyValidator ??= createAjv({ catalogue: false }).compile(policySchema);
  if (policyValidator(data)) return data as Policy;
  const problems = (policyValidator.errors ?? []).map((e) => policyProblem(e, data));
  throw new ConfigError(
    `POLICY=${file} is not a valid policy: ${problems.join('; ')}. Expected ${POLICY_SHAPE}; fix the file or unset POLICY`,
  );
}

/**
 * An OpenAPI document named by a variable (OPENAPI, --openapi): readable, JSON or YAML, and OpenAPI
 * 3.0 or 3.1. Parsed only (no $ref resolution), with the parser the suite loads it with. Throws ConfigError.
 */
export async function checkOpenApiFile(file: string, variable = 'OPENAPI'): Promise<void> {
  const expected = 'an OpenAPI 3.0 or 3.1 document (JSON or YAML)';
  readConfigured(variable, file, expected);
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  let doc: { openapi?: unknown; swagger?: unknown };
  try {
    doc = (await SwaggerParser.parse(file)) as typeof doc;
  } catch (e) {
    const why = (e as Error).message.split('\n')[0]?.replace(`${file} `, '');
    throw new ConfigError(`${variable}=${file} cannot be read as JSON or YAML, or is not an API document (${why}); expected ${expected}`);
  }
  const version = String(doc.openapi ?? (doc.swagger === undefined ? 'none' : `swagger ${String(doc.swagger)}`));
  if (!/^3\.[01]/.test(version))
    throw new ConfigError(
      `${variable}=${file} is OpenAPI "${version}"; expected ${expected}: convert a Swagger 2.0 document to OpenAPI 3 or unset ${variable}`,
    );
}
