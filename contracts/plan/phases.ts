/**
 * The run's two phases. Every check that spends a bucket (tagged SPENDS_BUCKET) runs after every check that does
 * not: on a deployment a window is real time, and a check calling an operation whose bucket the run has spent waits
 * out that window. The second phase is the first's teardown project, which Playwright runs whatever the first's
 * verdicts (a dependent project would not run after a failure). A teardown project is run whole when the
 * command line selects none of its tests, so it carries the command line's greps as its own.
 */
import type { Project } from '@playwright/test';
import { commandLineGreps } from './command-line-greps';

/** The name of the run's first project: both phases keep what they learn of the target under it (runScopeOf). */
const FIRST_PHASE = 'certify';

/** Under which name a project's workers share what they learn of the target (its silence, its ids): the run's. */
export const runScopeOf = (project: Pick<Project, 'name' | 'metadata'>): string =>
  typeof project.metadata?.runScope === 'string' ? project.metadata.runScope : (project.name ?? FIRST_PHASE);

/** The tag of a check, or of a test, that spends a bucket to its 429. */
export const SPENDS_BUCKET = '@spends-bucket';

const SPENDS = new RegExp(SPENDS_BUCKET.replace(/[.-]/g, '\\$&'));
/** Everything: the lookahead of a grep that holds wherever in the grep title it matches. */
const ANYWHERE = '[\\s\\S]*';

/** A grep that selects the titles both `a` and `b` select. */
function both(a: RegExp, b: RegExp): RegExp {
  const flags = [...new Set([...a.flags, ...b.flags])].filter((f) => f !== 'g').join('');
  return new RegExp(`^(?=${ANYWHERE}(?:${a.source}))(?=${ANYWHERE}(?:${b.source}))`, flags);
}

/**
 * The certification's projects: the checks that spend no bucket, then, as its teardown, those that do. The embedded
 * mock's windows are the harness's to end (its control API), so its run is one phase.
 */
export function certifyProjects(argv: readonly string[], target: 'mock' | 'deployment'): Project[] {
  if (target === 'mock') return [{ name: FIRST_PHASE }];
  const { grep, invert } = commandLineGreps(argv);
  return [
    { name: FIRST_PHASE, grepInvert: SPENDS, teardown: 'certify: buckets spent' },
    {
      name: 'certify: buckets spent',
      metadata: { runScope: FIRST_PHASE },
      grep: grep ? both(SPENDS, grep) : SPENDS,
      ...(invert ? { grepInvert: invert } : {}),
    },
  ];
}
