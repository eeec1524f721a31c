/**
 * The suite's `expect`: Playwright's, where an assertion that passes costs no report step. Playwright records
 * every assertion as a step with a source-mapped stack trace; a certification makes thousands, and their stacks
 * and steps were about a third of a worker's CPU while its checks ran. Each assertion is first judged here; one
 * that passes returns. Every other (a failure, a `.not`, a matcher not judged here) runs through Playwright's
 * expect, which judges it again and records its step, stack and message as before.
 */
import { isDeepStrictEqual } from 'node:util';

/** A matcher's own verdict, as `expect.extend` takes it. */
type MatcherFn = (received: never, ...args: never[]) => { pass: boolean };

/** Passes only where Playwright's matcher of the same name passes (it may pass where this does not). */
type PassesHere = (received: unknown, args: readonly unknown[]) => boolean;

/** Whether two numbers stand in the relation; never for anything else (Playwright's matcher judges those). */
const compared = (a: unknown, b: unknown, holds: (x: number, y: number) => boolean): boolean =>
  typeof a === 'number' && typeof b === 'number' && holds(a, b);

/** The built-in matchers the suite uses most, judged where they pass. */
const BUILT_IN: Readonly<Record<string, PassesHere>> = {
  toBe: (a, [e]) => Object.is(a, e),
  // Strict deep equality implies toEqual (which also ignores undefined properties and matches asymmetrically).
  toEqual: (a, [e]) => isDeepStrictEqual(a, e),
  toBeTruthy: (a, args) => args.length === 0 && Boolean(a),
  toBeDefined: (a, args) => args.length === 0 && a !== undefined,
  toBeLessThan: (a, [e]) => compared(a, e, (x, y) => x < y),
  toBeLessThanOrEqual: (a, [e]) => compared(a, e, (x, y) => x <= y),
  toBeGreaterThanOrEqual: (a, [e]) => compared(a, e, (x, y) => x >= y),
  // Playwright finds an item by ===, as indexOf does (not includes, which finds NaN).
  toContain: (a, [e]) => (typeof a === 'string' && typeof e === 'string' ? a.includes(e) : Array.isArray(a) && a.indexOf(e) !== -1),
};

type Expect = ((actual: unknown, messageOrOptions?: unknown) => object) & { soft: Expect };

/** Whether the assertion passes here; a matcher that throws is Playwright's to report, as a soft or a hard failure. */
function passesQuietly(passesHere: PassesHere, actual: unknown, args: readonly unknown[]): boolean {
  try {
    return passesHere(actual, args);
  } catch {
    return false;
  }
}

/** The matchers of one `expect(actual, message)`: judged here first, Playwright's on anything else. */
function assertion(real: Expect, own: Readonly<Record<string, MatcherFn>>, actual: unknown, message: unknown): object {
  const playwright = () => real(actual, message) as Record<string, unknown>;
  return new Proxy(
    {},
    {
      get(_target, name) {
        if (typeof name !== 'string') return undefined;
        const ownMatcher = own[name];
        const passesHere: PassesHere | undefined = ownMatcher
          ? (a, args) => (ownMatcher as (r: unknown, ...rest: readonly unknown[]) => { pass: boolean })(a, ...args).pass
          : BUILT_IN[name];
        if (!passesHere) return playwright()[name];
        return (...args: unknown[]) =>
          passesQuietly(passesHere, actual, args) ? undefined : (playwright()[name] as (...a: unknown[]) => unknown)(...args);
      },
    },
  );
}

/** `real` (Playwright's expect extended with `own`), with passing assertions judged without a step. */
export function quietPasses<E>(real: E, own: Readonly<Record<string, MatcherFn>>): E {
  const wrap = (e: Expect): Expect =>
    new Proxy(e, {
      apply: (_target, _this, [actual, message]: unknown[]) => assertion(e, own, actual, message),
      get: (target, name, receiver) => (name === 'soft' ? soft : Reflect.get(target, name, receiver)),
    });
  const playwright = real as unknown as Expect;
  const soft = wrap(playwright.soft);
  return wrap(playwright) as unknown as E;
}
