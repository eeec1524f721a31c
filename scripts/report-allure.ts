/**
 * `npm run report:allure`: generates the Allure HTML report (Allure 3, pure JavaScript) from
 * reports/allure-results into reports/allure-report, with the harness's categories.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setting } from '../config/settings';

const dir = setting(process.env, 'REPORTS_DIR');
const results = join(dir, 'allure-results');
if (!existsSync(results) || readdirSync(results).length === 0) {
  console.error(`report:allure: ${results} is missing or empty: run \`npm run certify\` first (it writes Allure results there)`);
  process.exit(2);
}
// Categories: a contract failure, a test blocked by the environment, and the findings.
writeFileSync(
  join(results, 'categories.json'),
  JSON.stringify(
    [
      { name: 'Contract failure', matchedStatuses: ['failed'], messageRegex: '[\\s\\S]*Broken fact[\\s\\S]*' },
      { name: 'Blocked by environment', matchedStatuses: ['skipped'], messageRegex: '[\\s\\S]*blocked by environment[\\s\\S]*' },
      { name: 'Not run on this target', matchedStatuses: ['skipped'], messageRegex: '[\\s\\S]*not run[\\s\\S]*' },
      { name: 'Target or harness failure', matchedStatuses: ['failed', 'broken'] },
    ],
    null,
    2,
  ),
);
// The package exports no subpaths: run its CLI from node_modules.
const cli = join('node_modules', 'allure', 'cli.js');
if (!existsSync(cli)) {
  console.error('report:allure: node_modules/allure/cli.js is missing: run `npm ci`');
  process.exit(2);
}
const r = spawnSync(
  process.execPath,
  [cli, 'generate', results, '--output', join(dir, 'allure-report'), '--name', 'Distributor Commerce API certification'],
  {
    stdio: 'inherit',
  },
);
if (r.status === 0) console.log(`report:allure: ${join(dir, 'allure-report', 'index.html')}`);
process.exit(r.status ?? 1);
