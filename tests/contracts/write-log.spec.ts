/**
 * The run's write log: a comparison of two answers of a list is judged only where no write of the run could have
 * come between them (paging.records-found-changed reads the same on the same target).
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logWrite, writesBetween, writesSeen } from '../../contracts/session/write-log';
import { RUN_DIR_ENV } from '../../contracts/plan/run-budget';

const WRITE = { id: 'orders.create', readOnly: false };
const OTHER_WRITE = { id: 'returns.create', readOnly: false };
const LIST = ['orders.create'];
const RUN_DIR = process.env[RUN_DIR_ENV];
test.afterEach(() => {
  if (RUN_DIR === undefined) delete process.env[RUN_DIR_ENV];
  else process.env[RUN_DIR_ENV] = RUN_DIR;
});
const READ = { id: 'orders.search', readOnly: true };

for (const shared of [false, true]) {
  test(`should tell a write in flight or sent between two reads, and only those (${shared ? 'run folder' : 'one process'})`, async () => {
    if (shared) process.env[RUN_DIR_ENV] = mkdtempSync(join(tmpdir(), 'write-log-'));
    else delete process.env[RUN_DIR_ENV];
    const env = shared ? 'sandbox' : 'production';
    await logWrite(WRITE, env, async () => 'created before');
    const quiet = writesSeen(LIST);
    await logWrite(READ, env, async () => 'a search');
    await logWrite(OTHER_WRITE, env, async () => 'a write of another list');
    expect(writesBetween(quiet, writesSeen(LIST)), 'a landed write, a read, a write of another list').toBeNull();
    // The environments of a deployment may share their data: a write in the other one may change this list too.
    const elsewhere = writesSeen(LIST);
    await logWrite(WRITE, env === 'sandbox' ? 'production' : 'sandbox', async () => 'the other environment');
    expect(writesBetween(elsewhere, writesSeen(LIST)), 'a write in the other environment').toMatch(/1 sent since/);

    let land = (): void => {};
    const inFlight = logWrite(WRITE, env, () => new Promise<void>((r) => (land = r)));
    const during = writesSeen(LIST);
    land();
    await inFlight;
    expect(writesBetween(during, writesSeen(LIST))).toMatch(/1 in flight when the first was sent/);

    const before = writesSeen(LIST);
    await logWrite(WRITE, env, async () => 'created between the pages');
    expect(writesBetween(before, writesSeen(LIST))).toMatch(/1 sent since/);
  });
}
