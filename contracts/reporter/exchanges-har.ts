/**
 * reports/exchanges.har: every exchange of the run (contracts/record/exchange-log.ts) in one HAR 1.2 log, which
 * HAR viewers open (Chrome's network panel imports it) and `npm run report` reads to show a failed check's
 * exchanges without sending them again.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarEntry, HarLog } from '../../reporting/har-shapes';
import { readExchanges } from '../record/exchange-log';

/** The name of the run's HAR file in the reports folder. */
export const EXCHANGES_HAR = 'exchanges.har';

export type { HarLog } from '../../reporting/har-shapes';

/** The run's exchanges as a HAR log. */
export const harLogOf = (entries: HarEntry[], harnessVersion: string): HarLog => ({
  log: { version: '1.2', creator: { name: 'distributor-api-harness', version: harnessVersion }, entries },
});

/** Merges the workers' exchanges into `<outputDir>/exchanges.har`; returns them. */
export function writeExchangesHar(runDir: string, outputDir: string, harnessVersion: string): HarEntry[] {
  const entries = readExchanges(runDir);
  writeFileSync(join(outputDir, EXCHANGES_HAR), JSON.stringify(harLogOf(entries, harnessVersion), null, 1));
  return entries;
}
