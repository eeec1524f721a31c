/**
 * Who may use a bucket while checks run at once against one target (several workers, concurrent checks): a
 * check that needs an operation's count to itself (an exhaustion, a header sequence, a comparison of Remaining)
 * holds the bucket exclusively; every other call of that operation waits while it does, and the exclusive holder
 * starts only once the calls in flight have landed. Shared by the run's workers through files in the run's folder:
 * an exclusive hold is a directory (mkdir is atomic), a call in flight a file in the bucket's folder. A caller
 * announces its call, then looks for a hold: the hold's owner waits for announced calls, so neither can miss the other.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How often a waiting caller looks again. */
const POLL_MS = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A bucket's key: the target and the operation (its app and environment may share it: never assumed apart). */
export const bucketKey = (baseUrl: string, operationId: string): string => `${baseUrl}|${operationId}`.replace(/[^\w.-]/g, '_');

export class BucketLocks {
  private readonly held = new Set<string>();
  private calls = 0;

  /** `dir`: the run's folder (undefined: one process, nothing to share). `maxWaitMs`: the longest wait before `onStuck`. */
  constructor(
    private readonly dir: string | undefined,
    private readonly maxWaitMs: number,
    private readonly onStuck: (message: string) => never,
  ) {}

  private holdOf(key: string): string {
    return join(this.dir as string, 'buckets', `${key}.held`);
  }

  private inFlightOf(key: string): string {
    return join(this.dir as string, 'buckets', `${key}.calls`);
  }

  private heldByOther(key: string): boolean {
    if (this.held.has(key)) return false;
    try {
      readdirSync(this.holdOf(key));
      return true;
    } catch {
      return false;
    }
  }

  private async waitFor(done: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + this.maxWaitMs;
    while (!done()) {
      if (Date.now() > deadline) this.onStuck(`waited ${this.maxWaitMs} ms for ${what}`);
      await sleep(POLL_MS);
    }
  }

  /** Runs one call of the bucket: after any exclusive hold of another check, announced while in flight. */
  async call<T>(key: string, send: () => Promise<T>): Promise<T> {
    if (!this.dir || this.held.has(key)) return send();
    const flight = join(this.inFlightOf(key), `${process.pid}-${(this.calls += 1)}`);
    mkdirSync(this.inFlightOf(key), { recursive: true });
    for (;;) {
      await this.waitFor(() => !this.heldByOther(key), `another check's exclusive use of ${key}`);
      writeFileSync(flight, '');
      if (!this.heldByOther(key)) break;
      rmSync(flight, { force: true });
    }
    try {
      return await send();
    } finally {
      rmSync(flight, { force: true });
    }
  }

  /** Runs `use` with the buckets to itself: taken in one order (no two holders wait on each other), released after. */
  async exclusively<T>(keys: readonly string[], use: () => Promise<T>): Promise<T> {
    if (!this.dir) return use();
    const mine = [...new Set(keys)].filter((k) => !this.held.has(k)).sort();
    mkdirSync(join(this.dir, 'buckets'), { recursive: true });
    try {
      for (const key of mine) {
        await this.waitFor(() => tryMkdir(this.holdOf(key)), `another check's exclusive use of ${key}`);
        this.held.add(key);
        mkdirSync(this.inFlightOf(key), { recursive: true });
        await this.waitFor(() => readdirSync(this.inFlightOf(key)).length === 0, `the calls in flight on ${key}`);
      }
      return await use();
    } finally {
      for (const key of mine.filter((k) => this.held.has(k))) {
        this.held.delete(key);
        rmSync(this.holdOf(key), { recursive: true, force: true });
      }
    }
  }
}

function tryMkdir(path: string): boolean {
  try {
    mkdirSync(path);
    return true;
  } catch {
    return false;
  }
}
