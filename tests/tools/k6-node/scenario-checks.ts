/**
 * The scenario configurations k6 refuses before a run starts (lib/executor's Validate, and its JSON reading of a
 * scenario), in k6's words: the double refuses the same ones with k6's exit code 104.
 */
import { parseDurationOption, type ScenarioConfig } from './executors';

/** k6's scenario names: the keys of `options.scenarios` (lib/executor/base_config.go). */
const SCENARIO_NAME = /^[0-9a-zA-Z_-]+$/;

const BASE_FIELDS = ['executor', 'startTime', 'gracefulStop', 'env', 'exec', 'tags', 'options'];
const ARRIVAL_FIELDS = ['timeUnit', 'preAllocatedVUs', 'maxVUs'];
const ITERATION_FIELDS = ['vus', 'iterations', 'maxDuration'];
/** The fields k6 reads per executor; any other is refused as Go's JSON decoder refuses an unknown field. */
const FIELDS: Record<string, string[]> = {
  'constant-arrival-rate': [...ARRIVAL_FIELDS, 'rate', 'duration'],
  'ramping-arrival-rate': [...ARRIVAL_FIELDS, 'startRate', 'stages'],
  'shared-iterations': ITERATION_FIELDS,
  'per-vu-iterations': ITERATION_FIELDS,
};

/** k6's refusal of a timeUnit of 0 (the double reads a missing one as 1 s, as k6 does). */
const timeUnitErrors = (c: ScenarioConfig): string[] =>
  c.timeUnit !== undefined && parseDurationOption(c.timeUnit) <= 0 ? ['the timeUnit must be more than 0'] : [];

/** What k6 finds wrong in an iterations scenario's VUs and iterations (both 1 when absent). */
function iterationErrors(c: ScenarioConfig): string[] {
  const vus = c.vus ?? 1;
  const iterations = c.iterations ?? 1;
  if (vus <= 0) return ['the number of VUs must be more than 0'];
  if (c.executor === 'per-vu-iterations') return iterations <= 0 ? ['the number of iterations must be more than 0'] : [];
  return iterations < vus ? [`the number of iterations (${iterations}) can't be less than the number of VUs (${vus})`] : [];
}

/** What k6 finds wrong in an arrival-rate scenario's VUs. */
function vuErrors(c: ScenarioConfig): string[] {
  if (c.preAllocatedVUs === undefined) return ["the number of preAllocatedVUs isn't specified"];
  if (c.preAllocatedVUs < 0) return ["the number of preAllocatedVUs can't be negative"];
  return c.maxVUs !== undefined && c.maxVUs < c.preAllocatedVUs ? ["maxVUs can't be less than preAllocatedVUs"] : [];
}

/** What k6 finds wrong in a scenario of an executor the double runs, in k6's order. */
function executorErrors(c: ScenarioConfig): string[] {
  switch (c.executor) {
    case 'constant-arrival-rate':
      return [
        ...(c.rate === undefined ? ["the iteration rate isn't specified"] : c.rate <= 0 ? ['the iteration rate must be more than 0'] : []),
        ...timeUnitErrors(c),
        ...(c.duration === undefined ? ['the duration is unspecified'] : []),
        ...vuErrors(c),
      ];
    case 'ramping-arrival-rate':
      return [
        ...((c.startRate ?? 0) < 0 ? ["the startRate value can't be negative"] : []),
        ...timeUnitErrors(c),
        ...vuErrors(c),
        ...(c.stages?.length ? [] : ['at least one stage has to be specified']),
      ];
    default:
      return iterationErrors(c);
  }
}

/** Go's JSON decoder's refusal of a scenario's `tags` or `env` value other than text (k6 reads them as strings). */
function nonStringValue(c: ScenarioConfig): string | undefined {
  const value = [...Object.values(c.tags ?? {}), ...Object.values(c.env ?? {})].find((v: unknown) => typeof v !== 'string');
  return value === undefined ? undefined : `json: cannot unmarshal ${typeof value} into Go struct field Options.scenarios of type string`;
}

/** Go's JSON decoder's refusal of the first field k6 does not read, or of a value of the wrong type, if any. */
function unknownField(c: ScenarioConfig): string | undefined {
  const known = [...BASE_FIELDS, ...(FIELDS[c.executor] ?? [])];
  const field = Object.keys(c).find((k) => !known.includes(k));
  return field === undefined ? nonStringValue(c) : `json: unknown field "${field}"`;
}

/** k6's configuration errors of one scenario (none: k6 runs it). */
function scenarioErrors(name: string, c: ScenarioConfig): string[] {
  const base = SCENARIO_NAME.test(name) ? [] : ['the scenario name should contain only numbers, latin letters, underscores, and dashes'];
  return [...base, ...executorErrors(c)];
}

/** k6's message for the scenarios it refuses: one line per scenario with its errors. */
export function scenariosRefusal(scenarios: Record<string, ScenarioConfig>): string | undefined {
  const field = Object.values(scenarios)
    .map(unknownField)
    .find((f) => f !== undefined);
  if (field) return field;
  const lines = Object.entries(scenarios)
    .map(([name, c]) => [name, scenarioErrors(name, c)] as const)
    .filter(([, errors]) => errors.length)
    .map(([name, errors]) => `\t- scenario ${name} has configuration errors: ${errors.join(', ')}`);
  return lines.length ? `There were problems with the specified script configuration:\n${lines.join('\n')}` : undefined;
}
