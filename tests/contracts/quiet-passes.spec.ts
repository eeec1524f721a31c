/** The suite's expect: a passing assertion is judged without Playwright; anything else goes through Playwright's. */
import { test, expect as playwright } from '@playwright/test';
import fc from 'fast-check';
import { quietPasses } from '../../contracts/judge/quiet-passes';

/** A stand-in for Playwright's expect that records which assertions reached it. */
function recordingExpect() {
  const reached: string[] = [];
  const matchers = (actual: unknown, message?: unknown) =>
    new Proxy(
      {},
      {
        get: (_t, name) =>
          name === 'not'
            ? { toBe: () => reached.push(`not.toBe ${String(actual)} ${String(message)}`) }
            : (...args: unknown[]) => reached.push(`${String(name)} ${JSON.stringify(actual)} ${JSON.stringify(args)} ${String(message)}`),
      },
    );
  const soft = (actual: unknown, message?: unknown) => matchers(actual, `soft ${String(message)}`);
  const real = Object.assign(matchers, { soft });
  return { real, reached };
}

const OWN = {
  toBeEven: (n: number) => ({ pass: n % 2 === 0, name: 'toBeEven', message: () => `${n} is odd` }),
  toExplode: (): { pass: boolean } => {
    throw new Error('a matcher that throws');
  },
};

test('should judge a passing assertion without Playwright and hand every other to Playwright, with its message', () => {
  const { real, reached } = recordingExpect();
  interface Assertion {
    toBeEven(): void;
    toExplode(): void;
    toBe(e: unknown): void;
    toEqual(e: unknown): void;
    toContain(e: unknown): void;
    toBeLessThan(e: unknown): void;
    toMatch(e: unknown): void;
    not: { toBe(e: unknown): void };
  }
  const expect = quietPasses(real, OWN) as unknown as (a: unknown, m?: string) => Assertion;
  const soft = (expect as unknown as { soft: typeof expect }).soft;
  expect(4).toBeEven();
  expect(3).toBe(3);
  soft([1, { a: 2 }]).toEqual([1, { a: 2 }]);
  expect('abc').toContain('b');
  expect(2).toBeLessThan(3);
  playwright(reached).toEqual([]);
  expect(5, 'five is even').toBeEven();
  soft(3).toBeLessThan(2);
  expect('1').toBeLessThan(2);
  expect(3).toMatch('x');
  expect(1).not.toBe(2);
  soft(1).toExplode();
  playwright(reached).toEqual([
    'toBeEven 5 [] five is even',
    'toBeLessThan 3 [2] soft undefined',
    'toBeLessThan "1" [2] undefined',
    'toMatch 3 ["x"] undefined',
    'not.toBe 1 undefined',
    'toExplode 1 [] soft undefined',
  ]);
});

test("should pass a built-in assertion here only where Playwright's matcher passes", () => {
  const { real, reached } = recordingExpect();
  const expect = quietPasses(real, {}) as unknown as (a: unknown) => Record<string, (...e: unknown[]) => void>;
  const value = fc.oneof(
    fc.integer({ min: -3, max: 3 }),
    fc.double(),
    fc.string({ maxLength: 2 }),
    fc.constant(undefined),
    fc.constant(null),
    fc.constant(Number.NaN),
  );
  const values = fc.oneof(value, fc.array(value, { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b'), value));
  for (const name of [
    'toBe',
    'toEqual',
    'toBeTruthy',
    'toBeDefined',
    'toBeLessThan',
    'toBeLessThanOrEqual',
    'toBeGreaterThanOrEqual',
    'toContain',
  ]) {
    fc.assert(
      fc.property(values, fc.oneof(fc.constant([]), fc.tuple(values)), (a, args) => {
        const before = reached.length;
        expect(a)[name]?.(...args);
        // Judged here as passing: Playwright's own matcher must pass too.
        if (reached.length === before) (playwright(a) as unknown as Record<string, (...e: unknown[]) => void>)[name]?.(...args);
      }),
      { numRuns: 300, seed: 7 },
    );
  }
});
