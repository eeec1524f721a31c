/**
 * Runs `npm run certify` in a child process with its reports in a fresh temporary folder. Asynchronous,
 * so loopback targets served by the calling process keep answering.
 */
import { test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../../../reporting/report-shapes';
import { cliArgs, inBackground } from '../../cli-bundles';
import type { RunSummary } from '../../../reporting/report-shapes';

export interface CertifyRun {
  status: number | null;
  stdout: string;
  stderr: string;
  out: string;
  seconds: number;
  summary(): RunSummary;
  findings(): Finding[];
}

/** Credentials of a URL target in front of the mock (its demo apps). */
export const MOCK_APPS_ENV = {
  RESELLER_CLIENT_ID: 'demo-reseller',
  RESELLER_CLIENT_SECRET: 'demo-reseller-secret',
  VENDOR_CLIENT_ID: 'demo-vendor',
  VENDOR_CLIENT_SECRET: 'demo-vendor-secret',
} as const;

/**
 * One Playwright worker for a test's run, which certifies a handful of checks: each worker loads Playwright and the
 * suite and opens its own session on the target (tokens, id searches), and a URL target's run would start up to
 * four. A test whose fact is about several workers names their number itself.
 */
export const ONE_WORKER = ['--workers', '1'] as const;

export async function certify(env: Record<string, string>, args: string[] = [], timeoutMs = 360_000): Promise<CertifyRun> {
  // Under the test's own output folder: nothing is written into the working tree.
  const out = mkdtempSync(test.info().outputPath('certify-'));
  const started = Date.now();
  const child = spawn(process.execPath, [...cliArgs('certify'), ...args], {
    env: { ...process.env, REPORTS_DIR: out, CI: '', ...env },
  });
  inBackground(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  clearTimeout(timer);
  return {
    status,
    stdout,
    stderr,
    out,
    seconds: (Date.now() - started) / 1000,
    summary: () => JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary,
    findings: () => JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as Finding[],
  };
}
