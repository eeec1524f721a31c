/**
 * What the operation checks record of an answer: whether a created resource became visible (on the mock,
 * a broken fact when not), the shape of an answer no document gives, whether an answer carries the fields a
 * client needs, what a call showed for the summary.
 */
import { test } from '@playwright/test';
import { absentFields, EXPECTED_FIELDS, fieldPath, isOperationId, type EnvironmentName, type Operation } from '../../catalogue';
import type { ApiResponse } from '../../clients/http';
import { recordFinding } from '../record/finding-recorder';
import { writeObserved } from '../record/annotations';
import { expect } from '../judge/matchers';
import type { Session } from '../session/session';

/**
 * Records whether a resource created asynchronously was found by search and details; on the mock, which
 * creates at once, not finding it is a broken fact.
 */
export function recordVisibility(
  session: Session,
  env: EnvironmentName,
  op: Operation,
  found: string | undefined,
  evidence: string,
  policyFile: string | undefined,
): void {
  const observed = found === undefined ? 'not-visible' : 'visible';
  recordFinding('writes.created-visible', observed, evidence, {
    environment: env,
    operationId: op.id,
    family: op.family,
    policyFile,
  });
  if (session.target.isMock) expect(found, `Broken fact: the mock finds what ${op.id} created\nReceived: ${evidence}`).toBeDefined();
}

/** The body's kind (the finding's observed value) and what is at its top level, in words. */
function topLevelOf(body: unknown): { kind: 'json-object' | 'json-array' | 'other'; seen: string } {
  if (Array.isArray(body)) return { kind: 'json-array', seen: `a list of ${body.length}` };
  if (!body || typeof body !== 'object') return { kind: 'other', seen: 'no JSON body' };
  const keys = Object.keys(body).sort();
  return { kind: 'json-object', seen: `top-level keys: ${keys.join(', ') || 'none'}` };
}

/**
 * What a target answered where no document gives the shape (the vendor family and quote to order, without an
 * OPENAPI document that has the path): recorded as the finding shapes.not-published, never judged.
 */
export function recordShapeNotPublished(op: Operation, env: EnvironmentName, res: ApiResponse, policyFile: string | undefined): void {
  const { kind, seen } = topLevelOf(res.json);
  const evidence = `${op.method} ${op.path} → ${res.status}, content-type ${res.headers['content-type'] ?? 'none'}, ${seen}`;
  recordFinding('shapes.not-published', kind, evidence, {
    environment: env,
    operationId: op.id,
    family: op.family,
    policyFile,
  });
}

/**
 * Whether an answer for the catalogue's own schema carries the fields a client cannot do without (ids,
 * paging, the lists): no document requires them, so the finding shapes.expected-field-absent records the
 * operation:field list of those it lacks (a failure only under a strict policy). Nothing is recorded for an
 * operation that expects no field.
 */
export function recordExpectedFields(op: Operation, env: EnvironmentName, res: ApiResponse, policyFile: string | undefined): void {
  const expected = isOperationId(op.id) ? EXPECTED_FIELDS[op.id] : [];
  if (!expected.length) return;
  const absent = absentFields(res.json, expected).map((f) => `${op.id}:${f}`);
  const evidence = absent.length
    ? `${op.method} ${op.path} → ${res.status} without ${absent.join(', ')}`
    : `${op.method} ${op.path} → ${res.status} with ${expected.map(fieldPath).join(', ')}`;
  recordFinding('shapes.expected-field-absent', absent.length ? 'absent' : 'all-present', evidence, {
    environment: env,
    operationId: op.id,
    family: op.family,
    policyFile,
  });
}

/** What the answer showed (status, headers, fields, latency, advertised limit), kept for the summary's row. */
export function observeShape(res: ApiResponse): void {
  const fields = res.json && typeof res.json === 'object' ? Object.keys(res.json as object).sort() : [];
  writeObserved(test.info(), {
    status: res.status,
    headers: Object.keys(res.headers).sort(),
    fields,
    latencyMs: Math.round(res.durationMs * 10) / 10,
    limit: res.headers['x-ratelimit-limit'] ?? null,
    correlationId: res.correlationId,
  });
}
