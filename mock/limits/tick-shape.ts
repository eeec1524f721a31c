/**
 * Keeps the hidden class of Node's tick objects alive for the life of the process.
 *
 * Every HTTP exchange queues several `process.nextTick` callbacks inside Node's streams, and each one
 * builds a small object literal with computed (symbol) keys. For each key of such a literal V8 keeps
 * the one hidden class it saw; on a second one it gives up for good and builds every later object of
 * that literal in its runtime. A full garbage collection that runs while no tick object is alive
 * drops those hidden classes, the next tick builds new ones, and from then on every nextTick of the
 * process takes the slow path. Under load that was 3-4 % of the mock's CPU samples in V8's
 * literal and map-transition runtime alone, plus the stream functions that inline nextTick.
 * Whether it happened depended on when the collector ran: a one-route Fastify server fell into it
 * with 100 or 300 other routes registered and not with 50 or 1 000; a forced full collection
 * tipped every one of them. One tick object held here keeps its hidden classes alive, so the
 * collector cannot drop them.
 *
 * The tick object is the resource of its own callback (`executionAsyncResource` inside the tick).
 */
import { executionAsyncResource } from 'node:async_hooks';

let held: object | undefined;

/** Holds a tick object from the next tick on; once per process. */
export function holdTickShape(): void {
  if (held) return;
  process.nextTick(() => {
    held ??= executionAsyncResource();
  });
}
