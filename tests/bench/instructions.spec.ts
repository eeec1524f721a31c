import { test, expect } from '@playwright/test';
import { callgrindTotals, countInstructions, hasCallgrind } from '../../bench/instructions';

// A callgrind dump as `--compress-strings=no` writes it: cost lines after fn=, and after each calls= line
// the call's inclusive cost (already counted in the callee's own lines).
const DUMP = `version: 1
creator: callgrind-3.19.0
events: Ir
ob=/usr/bin/node
fl=???
fn=Builtins_LoadIC
0 300
+2 200
fn=v8::internal::compiler::GraphReducer::ReduceTop()
0 1000
cfn=v8::internal::compiler::Reducer::Reduce(v8::internal::compiler::Node*)
calls=4 0
0 5000
fn=v8::internal::compiler::Reducer::Reduce(v8::internal::compiler::Node*)
0 5000
fn=v8::internal::Scavenger::ScavengePage(v8::internal::MemoryChunk*)
0 70
fn=0x000000000d0ee100
-1 40
cfn=Builtins_LoadIC
calls=1 0
0 500
totals: 11610
`;

test('should count every function once, calls not again, and the optimising compiler and the garbage collector apart', () => {
  expect(callgrindTotals(DUMP)).toEqual({ total: 300 + 200 + 1000 + 5000 + 70 + 40, compiler: 1000 + 5000, gc: 70 });
});

test('should count the instructions per request of a server under callgrind, start-up and warm-up left out', async () => {
  test.skip(!hasCallgrind(), 'valgrind with callgrind_control is not installed');
  test.setTimeout(240_000);
  const count = (amount: number) =>
    countInstructions(
      ['bench/bare-server.mjs', '300'],
      async (s) => ({ url: `${s.url}/x`, method: 'GET', headers: {} }),
      // At the lowest priority: the tests beside it are timing-sensitive.
      { warm: 200, count: amount, lowPriority: true },
    );
  const c = await count(100);
  expect(c.requests).toBe(100);
  // A bare node:http GET is some 80 000 instructions warm; Node's start alone is hundreds of millions,
  // so a window that took in the start-up would read millions per request.
  expect(c.perRequest).toBeGreaterThan(20_000);
  expect(c.perRequest).toBeLessThan(1_000_000);
  expect(c.compilerPerRequest + c.gcPerRequest).toBeLessThanOrEqual(c.perRequest);
});
