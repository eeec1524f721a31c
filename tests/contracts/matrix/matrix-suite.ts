/**
 * The contract suite as the detection matrix runs it (matrix.config.ts): every contract spec, with a hook
 * that serves each test the drift mode of its project that selects it. Switching modes resets the mock and
 * starts the session over, as a worker of its own would. A test that must catch a failure mode is
 * expected to fail, so its failure does not cost a worker restart; the verdicts are judged from the
 * JSON report (matrix-report.ts), by the checks' labels.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from '../../../contracts/session/test';
import { DRIFT_MODES, type DriftId } from '../../../mock/drift';
import { DriftLayer } from '../../../mock/drift/drift-layer';
import { grepTitle, modeOfTest } from './detection-matrix';
import { DRIFT_MODE_ANNOTATION } from './matrix-report';

const CONTRACTS = fileURLToPath(new URL('../../../contracts/', import.meta.url));

/** The drift modes of a project (matrix.config.ts). */
const modesOf = (metadata: unknown): DriftId[] => (metadata as { driftModes: DriftId[] }).driftModes;

/**
 * The matrix's own layer over the embedded mock: switchable, so that a project of several modes turns them on one
 * after another through the control API. A project of one mode starts the mock in it.
 */
test.use({
  mockLayer: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as the first argument.
    async ({}, use, workerInfo) => {
      const modes = modesOf(workerInfo.project.metadata);
      await use(new DriftLayer(modes.length === 1 ? modes : [], true));
    },
    { scope: 'worker' },
  ],
});

/** The drift mode the embedded mock of this worker serves now. */
let serving: string | undefined;

test.beforeEach(async ({ mockLayer, target, session }, testInfo) => {
  const modes = modesOf(testInfo.project.metadata);
  const title = grepTitle(testInfo.titlePath, testInfo.tags);
  const mode = modeOfTest(modes, title);
  if (mode === undefined) throw new Error(`no drift mode of this project (${modes.join(', ')}) selects "${title}"`);
  testInfo.annotations.push({ type: DRIFT_MODE_ANNOTATION, description: mode });
  // One mode (a project of one mode starts the mock in it) or none.
  serving ??= mockLayer?.active()[0] ?? '';
  if (mode !== serving) {
    if (!target.control) throw new Error('the detection matrix switches drift modes through the mock control API: none here');
    await target.control('POST', '/reset');
    await target.control('PUT', '/drift', { modes: [mode] });
    session.startOver(mode);
    serving = mode;
  }
  if (DRIFT_MODES.find((m) => m.id === mode)?.kind === 'failure') testInfo.fail();
});

for (const file of readdirSync(CONTRACTS)
  .filter((f) => f.endsWith('.spec.ts'))
  .sort()) {
  await import(pathToFileURL(join(CONTRACTS, file)).href);
}
