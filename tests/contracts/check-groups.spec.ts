import { test, expect } from '@playwright/test';
import { CheckGroup } from '../../contracts/outcomes/check-groups';
import { ANNOTATION, type CheckResult } from '../../contracts/record/annotations';
import { overlapLine } from '../../contracts/reporter/plan-reporter';

const results = (): CheckResult[] =>
  test
    .info()
    .annotations.filter((a) => a.type === ANNOTATION.checkResult)
    .map((a) => JSON.parse(a.description ?? '{}') as CheckResult);

test('should fail every check that passed beside a test error no check claimed, so that a lost assertion never passes', async () => {
  const group = new CheckGroup<object>();
  // An error added to the test past the hook that hands it to the running check (as a Playwright that stopped calling push would).
  group.check('a', { unit: 'a', requests: 0 }, async () => {
    Array.prototype.push.call(test.info().errors, { message: 'a soft assertion nobody claimed' });
  });
  group.check('b', { unit: 'b', requests: 0 }, async () => {});
  const thrown = await group.run({}, { concurrency: () => 2, measured: () => Promise.resolve() }).catch((e: Error) => e);
  // The simulated error is the test's only one: taken back, the test judges what the group made of it.
  test.info().errors.splice(0);
  expect(results().map((r) => r.status)).toEqual(['failed', 'failed']);
  expect(results()[1]?.error).toContain('a soft assertion nobody claimed');
  expect(String(thrown)).toContain('2 of 2 checks failed');
});

test('should give a check the errors added while it runs, and none to the check running beside it', async () => {
  const group = new CheckGroup<object>();
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  group.check('first', { unit: 'first', requests: 0 }, async () => {});
  group.check('slow', { unit: 'slow', requests: 0 }, async () => held);
  group.check('adds', { unit: 'adds', requests: 0 }, async () => {
    test.info().errors.push({ message: 'its own soft failure' });
    release();
  });
  const thrown = await group.run({}, { concurrency: () => 2, measured: () => Promise.resolve() }).catch((e: Error) => e);
  test.info().errors.splice(0);
  expect(results().map((r) => [r.title, r.status])).toEqual([
    ['first', 'passed'],
    ['slow', 'passed'],
    ['adds', 'failed'],
  ]);
  expect(String(thrown)).toContain('1 of 3 checks failed');
});

test('should run the first check alone until a round trip is measured, then the others beside it, never more than the pace allows', async () => {
  const group = new CheckGroup<object>();
  let measured = false;
  let markMeasured: () => void = () => {};
  const roundTrip = new Promise<void>((r) => (markMeasured = r));
  const pace = { concurrency: () => (measured ? 3 : 1), measured: () => roundTrip };
  const events: string[] = [];
  let inFlight = 0;
  let most = 0;
  const body = (name: string, work: () => Promise<void>) => async () => {
    most = Math.max(most, (inFlight += 1));
    events.push(`${name} starts`);
    await work();
    events.push(`${name} ends`);
    inFlight -= 1;
  };
  const tick = () => new Promise<void>((r) => setTimeout(r, 20));
  group.check(
    'first',
    { unit: 'first', requests: 0 },
    body('first', async () => {
      await tick();
      measured = true;
      markMeasured();
      await tick();
      await tick();
    }),
  );
  for (const name of ['b', 'c', 'd']) group.check(name, { unit: name, requests: 0 }, body(name, tick));
  await group.run({}, pace);
  expect(events.slice(0, 2)).toEqual(['first starts', 'b starts']);
  expect(events.indexOf('c starts')).toBeLessThan(events.indexOf('first ends'));
  expect(most).toBe(3);
  expect(results().map((r) => r.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
});

test('should say in the plan which checks may overlap: the checks of each group of two or more, within the cap', () => {
  const check = (unit: string) => ({ unit, requests: 1, check: `should answer ${unit}` });
  const planned = [[check('a'), check('b'), check('c')], [check('d')], [{ unit: 'tokens', requests: 4 }], [check('e'), check('f')]];
  expect(overlapLine(planned, 8)).toMatch(
    /^certify: at once: the 5 checks of 2 groups may overlap within their group, up to 8 calls at once per worker/,
  );
  expect(overlapLine(planned, 1)).toBe('certify: at once: one call at a time per worker (CERTIFY_CONCURRENCY=1)');
  expect(overlapLine([[check('d')]], 8)).toContain('no group holds two selected checks');
});
