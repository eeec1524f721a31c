/**
 * The results a check records travel as annotations written and read by one module: what a writer
 * records, the reader gives back typed, and a malformed one is refused with the test and the type.
 */
import { test, expect } from '@playwright/test';
import { readAnnotations } from '../../contracts/record/annotation-reader';
import {
  ANNOTATION,
  writeCheckResult,
  writeCorrelationId,
  writeFinding,
  writeIdSource,
  writeLabels,
  writeNotRun,
  writeObserved,
  type AnnotatedTest,
} from '../../contracts/record/annotations';

const TITLE = 'should answer a valid catalog.search call (production)';
const annotated = (annotations: AnnotatedTest['annotations']): AnnotatedTest => ({ title: TITLE, annotations });
const FINDING = {
  id: 'token.lifetime@reseller/production',
  statement: 'a token lasts 24 h',
  observed: 'beyond-24h',
  evidence: 'GET /x → 200',
};
const ID = { name: 'orderNumber', value: '20-1', origin: 'discovered', from: 'orders.search', environment: 'production' } as const;

test('should read back typed what the writers recorded, ignoring annotations of other types', () => {
  const info = { annotations: [{ type: 'skip', description: 'not a result' }] };
  writeLabels(info, { operation: 'catalog.search', environment: 'production', check: 'valid-call' });
  writeFinding(info, FINDING);
  writeObserved(info, { status: 200, headers: ['x-ratelimit-limit'], latencyMs: 3.5, limit: '60' });
  writeIdSource(info, ID);
  writeIdSource(info, ID);
  writeNotRun(info, 'budget spent');
  writeCheckResult(info, { title: 'shape', status: 'failed', durationMs: 4, error: 'Expected: Bearer' });
  const a = readAnnotations({ title: TITLE, ...info });
  expect(a).toMatchObject({ operation: 'catalog.search', environment: 'production', check: 'valid-call', notRun: ['budget spent'] });
  expect(a.findings).toEqual([FINDING]);
  expect(a.observed).toEqual([{ status: 200, headers: ['x-ratelimit-limit'], latencyMs: 3.5, limit: '60' }]);
  expect(a.idSources, 'an id is recorded once per origin').toEqual([ID]);
  expect(a.checkResults).toEqual([{ title: 'shape', status: 'failed', durationMs: 4, error: 'Expected: Bearer' }]);
});

test("should keep a test's last three correlation ids", () => {
  const info = { annotations: [] as { type: string; description?: string }[] };
  for (const n of [1, 2, 3, 4, 5]) writeCorrelationId(info, `GET /x → 200: IM-CorrelationID c${n}`);
  expect(readAnnotations({ title: TITLE, ...info }).correlationIds).toEqual(
    ['c3', 'c4', 'c5'].map((c) => `GET /x → 200: IM-CorrelationID ${c}`),
  );
});

test('should refuse a malformed annotation with the title of its test and its type', () => {
  const cases: [string, string | undefined, RegExp][] = [
    [ANNOTATION.finding, '{"id":"token.lifetime"', /JSON/],
    [ANNOTATION.finding, JSON.stringify({ ...FINDING, observed: 42 }), /\/observed: must be string/],
    [
      ANNOTATION.checkResult,
      JSON.stringify({ title: 'shape', status: 'broken', durationMs: 1 }),
      /\/status: must be equal to one of the allowed values/,
    ],
    [ANNOTATION.idSource, JSON.stringify({ ...ID, origin: undefined }), /must have required property 'origin'/],
    [ANNOTATION.observed, JSON.stringify({ latencyMs: '3' }), /\/latencyMs: must be number/],
    [ANNOTATION.openapiValidation, '{}', /must have required property 'validated'/],
    [ANNOTATION.environment, 'staging', /one of production, sandbox/],
    [ANNOTATION.blocked, undefined, /Expected: a text/],
  ];
  for (const [type, description, problem] of cases) {
    const read = () => readAnnotations(annotated([{ type, ...(description === undefined ? {} : { description }) }]));
    expect(read, `${type} ${description}`).toThrow(`Malformed annotation "${type}" on test "${TITLE}"`);
    expect(read, `${type} ${description}`).toThrow(problem);
  }
});
