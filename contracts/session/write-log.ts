/**
 * The run's writes, each with its environment, so that a check comparing two answers of one list (two pages of a search)
 * can tell whether a write of the run could have changed that list between them. Shared by the run's workers
 * through files in the run's folder (as the bucket locks are): a write is announced before it is sent (a file
 * ending `.sent`) and renamed when it lands (`.landed`); one process without a run folder keeps the log itself.
 * A write whose answer never came stays sent: every later comparison counts it as in flight.
 */
import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentName, Operation } from '../../catalogue';
import { RUN_DIR_ENV } from '../plan/run-budget';

/** What the log showed at one moment: the writes of an environment, sent or landed. */
export interface WritesSeen {
  readonly entries: readonly string[];
}

const SENT = '.sent';
const LANDED = '.landed';
/** The log of one process without a run folder. */
const local = new Map<string, string>();
let writes = 0;

const folder = (): string | undefined => {
  const dir = process.env[RUN_DIR_ENV];
  return dir ? join(dir, 'writes') : undefined;
};

/** Sends `send` logged as a write of `env` when the operation changes state; as it is otherwise. */
export async function logWrite<T>(op: Pick<Operation, 'id' | 'readOnly'>, env: EnvironmentName, send: () => Promise<T>): Promise<T> {
  if (op.readOnly) return send();
  const name = `${env}~${op.id}~${process.pid}-${(writes += 1)}`;
  const dir = folder();
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name + SENT), '');
  } else local.set(name, SENT);
  const result = await send();
  if (dir) renameSync(join(dir, name + SENT), join(dir, name + LANDED));
  else local.set(name, LANDED);
  return result;
}

/**
 * The writes by the operations `by` logged so far, in every environment: a deployment's environments may share their
 * data (a create in its sandbox may show in its production lists), so a write in any of them may change a list.
 */
export function writesSeen(by: readonly string[]): WritesSeen {
  const dir = folder();
  let names: string[];
  if (!dir) names = [...local].map(([n, state]) => n + state);
  else {
    try {
      names = readdirSync(dir);
    } catch {
      names = [];
    }
  }
  return { entries: names.filter((n) => by.some((id) => n.split('~')[1] === id)).sort() };
}

/**
 * Why a write of the run could have changed what was read between `before` (seen before the first read was sent)
 * and `after` (seen once the last answer came); null when none could: none in flight at `before`, none since.
 */
export function writesBetween(before: WritesSeen, after: WritesSeen): string | null {
  const inFlight = before.entries.filter((n) => n.endsWith(SENT)).length;
  const since = after.entries.filter((n) => !before.entries.includes(n) && !before.entries.includes(n.replace(LANDED, SENT))).length;
  if (inFlight === 0 && since === 0) return null;
  const parts = [inFlight ? `${inFlight} in flight when the first was sent` : '', since ? `${since} sent since` : ''].filter(Boolean);
  return `writes of this run (${parts.join(', ')}) could have changed the list between the two answers`;
}
