/**
 * The module a mock process runs: `node --import tsx mock/app/main.ts <npm run mock options>`. Launchers
 * (runner/mock-process.ts) import MOCK_MAIN from here, so the layering rule sees that they start the mock; the
 * mock itself is loaded only in the process that runs it.
 */
import { fileURLToPath } from 'node:url';

/** This module's path: what a launcher gives node to run. */
export const MOCK_MAIN = fileURLToPath(import.meta.url);

if (import.meta.url === `file://${process.argv[1]}`) {
  const { runMockCommand } = await import('./command');
  runMockCommand(process.argv);
}
