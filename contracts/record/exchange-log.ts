/**
 * Every exchange of a certification, written as it happens: each worker appends its HAR entries (har-entry.ts),
 * one JSON line each, to its own file in the run's folder; the summary reporter merges them into
 * reports/exchanges.har at the end (reporter/exchanges-har.ts). Appends survive a worker that Playwright
 * restarts after a failed test.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiResponse } from '../../clients/http';
import { failedEntryOf, harEntryOf, type ExchangeOwner, type HarEntry } from './har-entry';

/** The folder of the run's exchange files, in the run's folder (contracts/plan/run-budget.ts). */
export const exchangesDirOf = (runDir: string): string => join(runDir, 'exchanges');

/**
 * A worker's exchanges, appended to its own file (one per process: appends of two processes never interleave).
 * An exchange is kept as it came and written, redacted, when the test ends (`flush`): the redaction of an entry
 * costs a tenth of a call's CPU, which an exhaustion racing a short window cannot spare.
 */
export class ExchangeLog {
  private readonly file: string;
  private pending: (() => HarEntry)[] = [];
  constructor(runDir: string) {
    const dir = exchangesDirOf(runDir);
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `worker-${process.pid}.jsonl`);
  }

  add(res: ApiResponse, owner: ExchangeOwner | undefined): void {
    this.pending.push(() => harEntryOf(res, owner));
  }

  /** A request that got no usable answer (clients/http.ts's onFailure). */
  addFailure(sent: Parameters<typeof failedEntryOf>[0], failure: Error, owner: ExchangeOwner | undefined): void {
    this.pending.push(() => failedEntryOf(sent, failure, owner));
  }

  /** Writes the exchanges kept since the last flush. */
  flush(): void {
    if (!this.pending.length) return;
    const lines = this.pending.map((entry) => `${JSON.stringify(entry())}\n`);
    this.pending = [];
    appendFileSync(this.file, lines.join(''));
  }
}

/** A line that is not an entry is an error: a lost exchange must not pass unnoticed. */
function entryOfLine(line: string, where: string): HarEntry {
  const e = JSON.parse(line) as Partial<HarEntry>;
  if (typeof e.startedDateTime !== 'string' || !e.request || !e.response || typeof e._correlationId !== 'string') {
    throw new Error(
      `${where}: expected a HAR entry with startedDateTime, request, response and _correlationId; received ${line.slice(0, 200)}`,
    );
  }
  return e as HarEntry;
}

/** Every exchange the run's workers wrote, in the order they were sent; none when the run wrote none. */
export function readExchanges(runDir: string): HarEntry[] {
  const dir = exchangesDirOf(runDir);
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const entries = files.flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line, i) => entryOfLine(line, `${f}:${i + 1}`)),
  );
  return entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
}
