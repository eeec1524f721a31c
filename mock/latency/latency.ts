/**
 * An added latency per operation (`npm run mock -- --latency orders.search=20ms,catalog.details=5ms±2ms`):
 * a fixed delay, optionally with a jitter, before the answer leaves (onSend, so a refused call waits too).
 *   <op>=20ms           20 ms on every call
 *   <op>=5ms±2ms        uniform between 3 and 7 ms (`+-` works as well as `±`)
 *   <op>=5ms+exp(3ms)   5 ms plus an exponential tail of mean 3 ms (a long-tailed service)
 * The jitter draws from a generator seeded by the mock's seed, so two mocks of one seed draw the same delays.
 * Parsed once (parseLatencySpec) into typed options; an unknown operation or a malformed entry is refused
 * with what was expected.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

type Jitter = { kind: 'uniform'; spreadMs: number } | { kind: 'exponential'; meanMs: number };

/** One operation's added latency. */
interface OperationLatency {
  fixedMs: number;
  jitter?: Jitter;
}

/** Added latencies by operation id. */
export type LatencyOptions = Readonly<Record<string, OperationLatency>>;

const MS = String.raw`(\d+(?:\.\d+)?)ms`;
const ENTRY = new RegExp(String.raw`^([A-Za-z0-9_.-]+)=${MS}(?:(?:±|\+-)${MS}|\+exp\(${MS}\))?$`);

/**
 * `--latency` entries, comma-separated. `known` lists the operation ids the mock serves.
 * Throws with the entry, the expected form and the known ids.
 */
export function parseLatencySpec(spec: string, known: readonly string[], flag = '--latency'): LatencyOptions {
  const out: Record<string, OperationLatency> = {};
  for (const entry of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = ENTRY.exec(entry);
    if (!m)
      throw new Error(
        `${flag} entries look like orders.search=20ms, catalog.details=5ms±2ms or orders.search=5ms+exp(3ms); received "${entry}"`,
      );
    const [, id, fixed, spread, mean] = m as unknown as [string, string, string, string | undefined, string | undefined];
    if (!known.includes(id)) throw new Error(`${flag}: unknown operation "${id}"; expected one of ${known.join(', ')}`);
    if (out[id]) throw new Error(`${flag}: operation "${id}" given twice`);
    const jitter: Jitter | undefined =
      spread !== undefined
        ? { kind: 'uniform', spreadMs: Number(spread) }
        : mean !== undefined
          ? { kind: 'exponential', meanMs: Number(mean) }
          : undefined;
    out[id] = { fixedMs: Number(fixed), ...(jitter ? { jitter } : {}) };
  }
  return out;
}

/** One delay of an operation's latency, in ms (never below 0). */
export function drawDelay(l: OperationLatency, uniform01: () => number): number {
  const j = l.jitter;
  if (!j) return l.fixedMs;
  const extra = j.kind === 'uniform' ? (2 * uniform01() - 1) * j.spreadMs : -Math.log(1 - uniform01()) * j.meanMs;
  return Math.max(0, l.fixedMs + extra);
}

/** The timer wakes up to this early; the rest of the delay is waited out turn by turn of the event loop. */
const TIMER_SLACK_MS = 2;

/**
 * Waits `ms` from now, to within a turn of the event loop: a timer fires late by up to a millisecond or more, which
 * would add to every delay; the last TIMER_SLACK_MS are waited with setImmediate, so other requests still run.
 */
async function preciseDelay(ms: number): Promise<void> {
  const until = performance.now() + ms;
  if (ms > TIMER_SLACK_MS) await sleep(ms - TIMER_SLACK_MS);
  while (performance.now() < until) await new Promise((r) => setImmediate(r));
}

/** Holds each answer of an operation with an added latency for its delay. */
export function registerLatency(app: FastifyInstance, latency: LatencyOptions, seed: number): void {
  if (!Object.keys(latency).length) return;
  const rng = xoroshiro128plus(seed);
  const uniform01 = () => uniformFloat64(rng);
  app.addHook('onSend', async (req, _reply, payload) => {
    const id = req.rateRoute?.operationId;
    const l = id !== undefined ? latency[id] : undefined;
    if (l) await preciseDelay(drawDelay(l, uniform01));
    return payload;
  });
}
