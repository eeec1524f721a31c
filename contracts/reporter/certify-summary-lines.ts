/**
 * The one-screen summary of a certification run: the counts per group, the requests sent, the ids from
 * the target, the findings and the OpenAPI coverage, as lines of text (redacted by the caller).
 */
import type { Finding, LeftOut } from '../../reporting/report-shapes';
import { describeId, type ResolvedId } from '../../clients/ids';
import type { RunSummary } from '../../reporting/report-shapes';
import type { GroupCounts } from './certify-summary';
import { reproductionLines } from './reproduction';

/** "orderNumber 20-1 (listed by orders.search, production, sandbox); ..." : one entry per id and origin. */
export function idLine(ids: readonly ResolvedId[]): string {
  const byId = new Map<string, string[]>();
  for (const id of ids) {
    const key = describeId(id).replace(/, [a-z]+\)$/, '');
    byId.set(key, [...(byId.get(key) ?? []), id.environment]);
  }
  return [...byId.entries()].map(([k, envs]) => `${k}, ${envs.join(', ')})`).join('; ');
}

/** The table's columns: header and the count each shows (the step summary's table too). */
export const COLUMNS: readonly [string, keyof GroupCounts][] = [
  ['passed', 'passed'],
  ['failed', 'failed'],
  ['blocked', 'blocked'],
  ['not run', 'skipped'],
  ['out of scope', 'outOfScope'],
  ['n/a', 'notApplicable'],
  ['findings', 'findings'],
];

const cell = (text: string, header: string): string => text.padStart(Math.max(8, header.length + 2));
const row = (name: string, g: GroupCounts): string => name.padEnd(14) + COLUMNS.map(([h, k]) => cell(String(g[k]), h)).join('');

/** The table of counts per group, with its header and the total. */
function countLines(groups: ReadonlyMap<string, GroupCounts>, totals: GroupCounts): string[] {
  return [
    'group'.padEnd(14) + COLUMNS.map(([h]) => cell(h, h)).join(''),
    ...[...groups.entries()].sort().map(([name, g]) => row(name, g)),
    row('total', totals),
  ];
}

/** How the run spread its calls: workers, calls at once, the median round trip it chose them from. */
function paceLine(p: NonNullable<NonNullable<RunSummary['requests']>['pace']>): string {
  const rtt = p.medianRttMs === null ? 'no round trip measured' : `median round trip ${Math.round(p.medianRttMs)} ms`;
  const refused = p.unexpected429s ? `; ${p.unexpected429s} 429s no check asked for, each waited out and sent again` : '';
  return `Pace: ${p.workers} worker${p.workers > 1 ? 's' : ''}, up to ${p.atOnce} call${p.atOnce > 1 ? 's' : ''} at once each (${rtt}; CERTIFY_CONCURRENCY caps it)${refused}`;
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

const checks = (n: number): string => (n > 1 ? ` (${n} checks)` : '');
const count = (leftOut: readonly LeftOut[]): number => leftOut.reduce((n, l) => n + l.checks, 0);

/**
 * The checks without a verdict, one section per kind, each reason once with how many checks it held back:
 * out of scope (with what brings each in) and not applicable leave the exit code alone; what was blocked or
 * not run could not be judged, and the run exits 99 unless a check failed (certify-exit.ts).
 */
function leftOutLines(leftOut: readonly LeftOut[]): string[] {
  const of = (...kinds: LeftOut['kind'][]) => leftOut.filter((l) => kinds.includes(l.kind));
  const scope = of('out-of-scope');
  const notApplicable = of('not-applicable');
  const notJudged = of('blocked', 'not-run');
  const lines: string[] = [];
  if (scope.length)
    lines.push(
      '',
      `Out of scope: ${count(scope)} checks left out by this run's settings (each line: why, and what brings it in):`,
      ...scope.map((l) => `  ${l.reason}; brought in by ${l.bringsIn ?? '—'}${checks(l.checks)}`),
    );
  if (notApplicable.length)
    lines.push(
      '',
      `Not applicable to this target: ${count(notApplicable)} checks:`,
      ...notApplicable.map((l) => `  ${l.reason}${checks(l.checks)}`),
    );
  if (notJudged.length)
    lines.push(
      '',
      `Not judged: ${count(of('blocked'))} blocked, ${count(of('not-run'))} not run:`,
      ...notJudged.map((l) => `  ${l.kind === 'blocked' ? 'blocked' : 'not run'}: ${l.reason}${checks(l.checks)}`),
    );
  return lines;
}

/** The one-screen summary of the run (redacted by the caller). */
export function summaryLines(s: RunSummary, groups: ReadonlyMap<string, GroupCounts>, outputDir: string): string[] {
  const lines = [
    '',
    `Certification of ${s.target} (${s.environments.join(', ')}): ${s.verdict.toUpperCase()}`,
    ...countLines(groups, { outOfScope: 0, notApplicable: 0, ...s.totals }),
  ];
  const r = s.requests;
  if (r) {
    lines.push(
      `Requests sent: ${r.sent}${r.planned === undefined ? '' : ` (planned ${r.planned})`}${r.budget === null ? '' : ` of a budget of ${r.budget}`}` +
        (r.grownBy ? ` (the plan's, grown by ${r.grownBy} for buckets advertising more than their documented limits)` : '') +
        (r.checksLeftOutByBudget ? `; ${r.checksLeftOutByBudget} checks not run: budget spent` : ''),
    );
    if (r.pace) lines.push(paceLine(r.pace));
  }
  if (s.ids?.length) lines.push(`Ids from the target: ${idLine(s.ids)}`);
  const o = outputDir;
  return [
    ...lines,
    ...findingLines(s.findings),
    ...openapiLines(s.openapi),
    ...leftOutLines(s.leftOut ?? []),
    ...reproductionLines(s.tests, o),
    '',
    `Reports: ${o}/summary.json, ${o}/findings.json, ${o}/junit.xml, ${o}/exchanges.har, ${o}/html/index.html, ${o}/allure-results`,
  ];
}
