/** Shim of the `k6` module for the k6 double. */
import { rt } from './bridge';

export function check<T>(value: T, checks: Record<string, (v: T) => boolean>, tags?: Record<string, string>): boolean {
  if (rt().phase() === 'init') throw new Error('Using check() in the init context is not supported');
  let all = true;
  for (const [name, fn] of Object.entries(checks)) {
    let ok: boolean;
    try {
      ok = !!fn(value);
    } catch {
      ok = false;
    }
    rt().record('checks', 'rate', ok ? 1 : 0, { ...tags, check: name });
    all = all && ok;
  }
  return all;
}

export function sleep(seconds: number): void {
  rt().sleepSync(seconds * 1000);
}

export function group<T>(_name: string, fn: () => T): T {
  if (rt().phase() === 'init') throw new Error('Using group() in the init context is not supported');
  return fn();
}

export function fail(message?: string): never {
  throw new Error(message ?? 'fail()');
}

export default { check, sleep, group, fail };
