/**
 * The one-screen summary of a certification run: the counts per group, the requests sent, the ids from
 * the target, the findings and the OpenAPI coverage, as lines of text (redacted by the caller).
 */
import type { Finding } from '../../reporting/report-shapes';
import { describeId, type ResolvedId } from '../../clients/ids';
import type { CertifySummary, GroupCounts, NotJudged } from './certify-summary';

/** "orderNumber 20-1 (listed by orders.search, production, sandbox); ..." : one entry per id and origin. */
export function idLine(ids: readonly ResolvedId[]): string {
  const byId = new Map<string, string[]>();
  for (const id of ids) {
    const key = describeId(id).replace(/, [a-z]+\)$/, '');
    byId.set(key, [...(byId.get(key) ?? []), id.environment]);
  }
  return [...byId.entries()].map(([k, envs]) => `${k}, ${envs.join(', ')})`).join('; ');
}

const row = (name: string, g: GroupCounts): string =>
  `${name.padEnd(14)}${String(g.passed).padStart(8)}${String(g.failed).padStart(8)}${String(g.blocked).padStart(9)}${String(g.skipped).padStart(9)}${String(g.findings).padStart(10)}`;

/** The table of counts per group, with its header and the total. */
function countLines(groups: ReadonlyMap<string, GroupCounts>, totals: GroupCounts): string[] {
  return [
    `${'group'.padEnd(14)}${'passed'.padStart(8)}${'failed'.padStart(8)}${'blocked'.padStart(9)}${'not run'.padStart(9)}${'findings'.padStart(10)}`,
    ...[...groups.entries()].sort().map(([name, g]) => row(name, g)),
    row('total', totals),
  ];
}

/** One line per finding id (its scopes merged) with what the target did. */
function findingLines(findings: readonly Finding[]): string[] {
  const byId = new Map<string, Set<string>>();
  for (const f of findings) {
    const base = f.id.split('@')[0] as string;
    byId.set(base, (byId.get(base) ?? new Set()).add(f.observed));
  }
  if (!byId.size) return [];
  return [
    '',
    'Findings (spec conflicts and gaps: what this target does):',
    ...[...byId.entries()].sort().map(([id, obs]) => `  ${id.padEnd(36)} ${[...obs].join(', ')}`),
  ];
}

/** The OPENAPI line: operations mapped, bodies validated, gaps between the document and the catalogue. */
function openapiLines(openapi: unknown): string[] {
  if (!openapi) return [];
  const o = openapi as {
    file?: string;
    mapped?: unknown[];
    catalogueWithoutSchema?: string[];
    documentedNotInCatalogue?: string[];
    bodiesValidated?: number;
    bodiesFailed?: number;
    error?: string;
  };
  return [
    '',
    o.error
      ? `OpenAPI: ${o.error}`
      : `OpenAPI ${o.file}: ${o.mapped?.length} operations mapped, ${o.bodiesValidated} bodies validated, ${o.bodiesFailed} failed; ` +
        `${o.catalogueWithoutSchema?.length} catalogue operations without a documented schema, ${o.documentedNotInCatalogue?.length} documented operations not in the catalogue`,
  ];
}

/**
 * How many checks were blocked and not run, and each reason once (with how many checks it held back):
 * what could not be judged says so, and the run exits 99 unless a check failed (scripts/certify.ts).
 */
function notJudgedLines(notJudged: readonly NotJudged[]): string[] {
  if (!notJudged.length) return [];
  const byReason = new Map<string, number>();
  for (const n of notJudged) {
    const key = `${n.status === 'blocked' ? 'blocked' : 'not run'}: ${n.reason}`;
    byReason.set(key, (byReason.get(key) ?? 0) + 1);
  }
  const blocked = notJudged.filter((n) => n.status === 'blocked').length;
  return [
    '',
    `Not judged: ${blocked} blocked, ${notJudged.length - blocked} not run:`,
    ...[...byReason.entries()].map(([reason, n]) => `  ${reason}${n > 1 ? ` (${n} checks)` : ''}`),
  ];
}

/** The one-screen summary of the run (redacted by the caller). */
export function summaryLines(
  s: CertifySummary,
  groups: ReadonlyMap<string, GroupCounts>,
  outputDir: string,
  notJudged: readonly NotJudged[],
): string[] {
  const lines = [
    '',
    `Certification of ${s.target} (${s.environments.join(', ')}): ${s.verdict.toUpperCase()}`,
    ...countLines(groups, s.totals),
  ];
  const r = s.requests;
  if (r) {
    lines.push(
      `Requests sent: ${r.sent}${r.budget === null ? '' : ` of a budget of ${r.budget}`}` +
        (r.checksLeftOutByBudget ? `; ${r.checksLeftOutByBudget} checks not run: budget spent` : ''),
    );
  }
  if (s.ids?.length) lines.push(`Ids from the target: ${idLine(s.ids)}`);
  const o = outputDir;
  return [
    ...lines,
    ...findingLines(s.findings),
    ...openapiLines(s.openapi),
    ...notJudgedLines(notJudged),
    '',
    `Reports: ${o}/summary.json, ${o}/findings.json, ${o}/junit.xml, ${o}/html/index.html, ${o}/allure-results`,
  ];
}
