/**
 * The checks of a run's test as the summary counts them: one per grouped check (outcomes/check-groups.ts), else the test
 * itself under its labels, with its status, its reason when it reached no verdict, and the ids its evidence used.
 */
import type { CheckStatus } from '../../reporting/report-shapes';
import { describeId, type ResolvedId } from '../../clients/ids';
import type { CheckResult, TestAnnotations } from './annotations';

/** One test of the run as the reporter saw it. */
export interface RunEntry {
  title: string;
  /** The spec file's name, e.g. tokens.spec.ts. */
  file: string;
  tags: string[];
  annotations: readonly { type: string; description?: string }[];
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  durationMs: number;
  errors: readonly { message?: string }[];
}

/** A failure's text with the ids it used and their origin, so the evidence says where each came from. */
function withIds(ids: readonly ResolvedId[], error: string): string {
  return error && ids.length ? `${error}\nIds used: ${ids.map(describeId).join('; ')}` : error;
}

function statusOf(e: RunEntry, a: TestAnnotations): CheckStatus {
  if (e.status !== 'skipped') return e.status === 'passed' ? 'passed' : 'failed';
  if (a.blocked.length) return 'blocked';
  if (a.outOfScope.length) return 'out-of-scope';
  return a.notApplicable.length ? 'not-applicable' : 'skipped';
}

/** The checks of a test: one per grouped check, else the test itself under its labels. */
/** The checks of one test: its grouped checks' verdicts, or the test itself as one check. */
export function unitsOf(e: RunEntry, a: TestAnnotations): CheckResult[] {
  if (a.checkResults.length) {
    return a.checkResults.map((c) => ({
      title: c.title,
      status: c.status,
      durationMs: c.durationMs,
      ...(c.error ? { error: withIds(a.idSources, c.error) } : {}),
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.bringsIn ? { bringsIn: c.bringsIn } : {}),
      ...(c.operation ? { operation: c.operation } : {}),
      ...(c.environment ? { environment: c.environment } : {}),
      ...(c.check ? { check: c.check } : {}),
      ...(c.observed ? { observed: c.observed } : {}),
      ...(c.correlationIds ? { correlationIds: c.correlationIds } : {}),
      ...(c.facts ? { facts: c.facts } : {}),
    }));
  }
  const error = withIds(a.idSources, e.errors.map((x) => x.message ?? '').join('\n'));
  const scope = a.outOfScope[0];
  const reason = [...a.notRun, ...a.blocked, ...a.notApplicable][0] ?? scope?.reason;
  return [
    {
      title: e.title,
      status: statusOf(e, a),
      durationMs: e.durationMs,
      ...(error ? { error } : {}),
      ...(reason ? { reason } : {}),
      ...(scope ? { bringsIn: scope.bringsIn } : {}),
      ...(a.operation ? { operation: a.operation } : {}),
      ...(a.environment ? { environment: a.environment } : {}),
      ...(a.check ? { check: a.check } : {}),
      ...(a.factVerdicts ? { facts: a.factVerdicts } : {}),
    },
  ];
}
