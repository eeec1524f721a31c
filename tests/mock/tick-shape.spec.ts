import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROBE = fileURLToPath(new URL('./probes/tick-shape-probe.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the probe; its JSON line, and the states V8 reports for the literal slots of `process.nextTick`. */
function probe(...args: string[]): { r: Record<string, boolean>; literalSlots: string[] } {
  // Standard output to a file: V8 prints with C's stdio, which drops what a non-blocking pipe refuses.
  const file = test.info().outputPath(`probe${args.join('-')}.txt`);
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  const p = spawnSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', PROBE, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    timeout: 60_000,
    stdio: ['ignore', fd, 'pipe'],
  });
  closeSync(fd);
  expect(p.status, `probe exited ${p.status}: ${p.stderr}`).toBe(0);
  const stdout = readFileSync(file, 'utf8');
  const lines = stdout.trim().split('\n');
  // Each literal slot once.
  const slots = new Map<string, string>();
  for (const l of lines) {
    const m = /slot #(\d+) DefineKeyedOwnPropertyInLiteral (\w+)/.exec(l);
    if (m && !slots.has(m[1] as string)) slots.set(m[1] as string, m[2] as string);
  }
  const literalSlots = [...slots.values()];
  expect(
    literalSlots.length,
    `V8 printed no literal slot for process.nextTick (its debug output changed?):\n${stdout.slice(0, 2000)}`,
  ).toBeGreaterThan(0);
  return { r: JSON.parse(lines.pop() as string) as Record<string, boolean>, literalSlots };
}

test.describe("the mock keeps Node's tick objects on V8's fast path", () => {
  test('should hold a tick object, so full collections while no tick is alive leave nextTick monomorphic', () => {
    const { r, literalSlots } = probe();
    expect(r, 'the held object is a tick object (its callback and async id symbol)').toMatchObject({ held: true, heldIsTick: true });
    expect(r.heldSameAsAfter, 'a tick object built after three full collections has the held hidden class').toBe(true);
    expect(literalSlots, "nextTick's literal feedback").not.toContain('MEGAMORPHIC');
  });

  test('should show the failure it prevents: without the hold, the same collections make nextTick megamorphic', () => {
    // If a Node release stops dropping the class, this test says so and the hold can go.
    const { r, literalSlots } = probe('without-hold');
    expect(r.held).toBe(false);
    expect(literalSlots, "nextTick's literal feedback").toContain('MEGAMORPHIC');
  });
});
