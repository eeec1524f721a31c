/**
 * Run by tick-shape.spec.ts as `node --allow-natives-syntax --expose-gc --import tsx <this file>`: builds the mock
 * (which holds Node's tick shape), runs full collections while no tick object is alive, then asks V8
 * whether a new tick object still has the held one's hidden class, and prints V8's feedback of
 * `process.nextTick` (its literal's slots: MONOMORPHIC, or MEGAMORPHIC once a new class was seen). Ends with
 * one JSON line.
 *
 * The held object is found from outside the mock: every tick object made while the mock is built is
 * watched through a weak reference (which keeps none alive), and the one still alive after the
 * collections is the one the mock holds.
 */
import { createHook, executionAsyncResource } from 'node:async_hooks';
import { setImmediate as immediate } from 'node:timers/promises';
import { buildMockApp } from '../../../mock';

const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const tickResource = (): Promise<object> => new Promise((resolve) => process.nextTick(() => resolve(executionAsyncResource())));

const made: WeakRef<object>[] = [];
const watch = createHook({
  init: (_id, type, _trigger, resource: object) => {
    if (type === 'TickObject') made.push(new WeakRef(resource));
  },
}).enable();
if (process.argv[2] !== 'without-hold') await (await buildMockApp()).close();
watch.disable();
// Enough ticks for V8 to give nextTick its feedback (allocated lazily) and learn its literal's classes.
for (let i = 0; i < 500; i++) await tickResource();
await immediate();
for (let i = 0; i < 3; i++) {
  await immediate(); // no tick object alive while the collector runs
  gc();
}
const held = made.map((w) => w.deref()).find((o) => o !== undefined);
const symbols = held ? Object.getOwnPropertySymbols(held).map(String) : [];
const after = await tickResource();
for (let i = 0; i < 5; i++) await tickResource();
new Function('f', '%DebugPrint(f)')(process.nextTick);
console.log(
  JSON.stringify({
    held: held !== undefined,
    heldIsTick:
      held !== undefined && typeof (held as { callback?: unknown }).callback === 'function' && symbols.some((s) => /async_id/.test(s)),
    heldSameAsAfter: held !== undefined && sameHiddenClass(held, after),
  }),
);
