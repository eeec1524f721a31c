/** The scenarios: their schedules in this segment, and their iterations run on one thread in start-time order. */
import { sleepSync } from './sync-http';
import { contextTags, execution, record } from './run-state';
import { MAX_ITERATIONS, scheduleOf, type executionSegmentOf, type ScenarioConfig, type Schedule } from './executors';
import { EXIT, RunError, TestAbort } from './run-result';
import { scenariosRefusal } from './scenario-checks';
import type { ScriptModule, ScriptOptions } from './script';

/** The scenarios of the script; without any, k6's implicit shared-iterations scenario. */
function scenariosOf(o: NonNullable<ScriptModule['options']>): Record<string, ScenarioConfig> {
  if (o.scenarios) return o.scenarios;
  if (o.duration)
    throw new RunError('k6-node does not run duration-based tests without scenarios (constant-vus); use k6', EXIT.invalidConfig);
  if ((o.vus ?? 1) > 1) throw new RunError(`k6-node runs one VU per iterations scenario; the script asks for ${o.vus}`, EXIT.invalidConfig);
  return { default: { executor: 'shared-iterations', vus: 1, iterations: o.iterations ?? 1, exec: 'default' } };
}

interface Due {
  at: number;
  s: Schedule;
  /** Index among the scenario's iterations. */
  i: number;
}

/** Runs every scenario on one thread in start-time order; see README.md for how it differs from k6. */
export function runScenarios(
  mod: ScriptModule,
  schedules: Schedule[],
  env: Record<string, string>,
  data: unknown,
  log: (l: string) => void,
): void {
  const queue: Due[] = [];
  for (const s of schedules) {
    if (s.startsMs) s.startsMs.forEach((at, i) => queue.push({ at, s, i }));
    else for (let i = 0; i < s.iterations; i++) queue.push({ at: 0, s, i });
  }
  if (queue.length > MAX_ITERATIONS) throw new RunError(`k6-node schedules at most ${MAX_ITERATIONS} iterations`, EXIT.invalidConfig);
  queue.sort((a, b) => a.at - b.at || a.i - b.i);
  const started = Date.now();
  const lastStart = Math.max(0, ...queue.map((q) => q.at));
  // k6's default gracefulStop: iterations still due 30 s after the last scheduled start are not run.
  const hardStop = started + lastStart + 30_000;
  let errors = 0;
  let inInstance = 0;
  for (const due of queue) {
    const wait = started + due.at - Date.now();
    if (wait > 0) sleepSync(wait);
    const now = Date.now() - started;
    if (due.s.startsMs) {
      // Iterations of this scenario already due and not started: more than maxVUs would need VUs k6 does not have.
      const overdue = due.s.startsMs.filter((t, j) => j >= due.i && t <= now).length;
      if (overdue > due.s.maxVUs || Date.now() > hardStop) {
        record('dropped_iterations', 'counter', 1, { scenario: due.s.name });
        continue;
      }
    }
    const c = due.s.config;
    const fn = mod[c.exec ?? 'default'];
    if (typeof fn !== 'function')
      throw new RunError(
        `scenario "${due.s.name}" executes "${c.exec ?? 'default'}", which the script does not export`,
        EXIT.invalidConfig,
      );
    (globalThis as unknown as { __ENV: Record<string, string> }).__ENV = { ...env, ...c.env };
    Object.assign(execution.scenario, { name: due.s.name, executor: c.executor, iterationInTest: due.i, startTime: started });
    Object.assign(execution.vu, { iterationInScenario: due.i, iterationInInstance: inInstance++ });
    // k6's globals of the running VU: its id and its iteration.
    Object.assign(globalThis, { __VU: execution.vu.idInTest, __ITER: execution.vu.iterationInInstance });
    contextTags.current = { scenario: due.s.name, ...c.tags };
    const t0 = performance.now();
    try {
      (fn as (d: unknown) => void)(data);
      record('iterations', 'counter', 1);
    } catch (e) {
      if (e instanceof TestAbort) throw new RunError(e.message, EXIT.scriptAborted);
      errors += 1;
      if (errors <= 10) log(`ERRO[k6-node] ${(e as Error).message} (scenario ${due.s.name}, iteration ${due.i})`);
    } finally {
      record('iteration_duration', 'trend', performance.now() - t0);
      execution.instance.iterationsCompleted += 1;
      contextTags.current = {};
    }
  }
  if (errors > 10) log(`ERRO[k6-node] ${errors - 10} more iteration errors`);
  (globalThis as unknown as { __ENV: Record<string, string> }).__ENV = { ...env };
}

/** The schedule of each scenario in this segment; a configuration k6 refuses ends the run with k6's code. */
export function schedulesOf(o: ScriptOptions, segment: ReturnType<typeof executionSegmentOf>): Schedule[] {
  const scenarios = scenariosOf(o);
  try {
    const refusal = scenariosRefusal(scenarios);
    if (refusal) throw new RunError(refusal, EXIT.invalidConfig);
    return Object.entries(scenarios).map(([name, c]) => scheduleOf(name, c, segment));
  } catch (e) {
    throw e instanceof RunError ? e : new RunError((e as Error).message, EXIT.invalidConfig);
  }
}
