/**
 * Reading a write back: a bounded number of looks, a pause apart (the document does not say when a write
 * takes effect, and makes some asynchronous), and the finding of what the last look showed.
 */
import { idSources, type EnvironmentName, type Operation } from '../../catalogue';
import type { ApiResponse } from '../../clients/http';
import { valueAt } from '../../clients/ids';
import { recordFinding } from '../record/finding-recorder';
import { expect } from '../judge/matchers';
import { outOfScope } from '../outcomes/outcomes';
import { firstScope, selectedScope, writesScope } from '../plan/scope';
import type { HarnessConfig } from '../../config/harness-config';
import type { OutOfScope } from '../record/annotations';
import type { Session } from '../session/session';
import { test } from '@playwright/test';

/** How often, and how far apart, a write is looked for. */
export const READ_BACK_ATTEMPTS = 3;
const READ_BACK_PAUSE_MS = 1_000;

/** The first value `find` gives within the attempts, or undefined. */
export async function lookFor<T>(find: () => Promise<T | undefined>): Promise<T | undefined> {
  for (let i = 0; i < READ_BACK_ATTEMPTS; i += 1) {
    const found = await find();
    if (found !== undefined) return found;
    if (i < READ_BACK_ATTEMPTS - 1) await new Promise((r) => setTimeout(r, READ_BACK_PAUSE_MS));
  }
  return undefined;
}

/** What the last read-back showed: the change, the old value, or no value to judge (an optional field absent). */
export type ReadBack = 'changed' | 'unchanged' | 'unreadable';

/**
 * Records what reading a write back showed (finding writes.read-back: the document does not say when a
 * write takes effect). The embedded mock applies a write at once: there, a write that does not read back
 * changed is a broken fact.
 */
export function recordReadBack(session: Session, env: EnvironmentName, op: Operation, seen: ReadBack, evidence: string): void {
  recordFinding('writes.read-back', seen, evidence, {
    environment: env,
    operationId: op.id,
    family: op.family,
    policyFile: session.config.policyFile,
  });
  if (session.target.isMock)
    expect(seen, `Broken fact: the mock reads ${op.id}'s change back at once (${env})\nReceived: ${evidence}`).not.toBe('unchanged');
}

/** Creates an order (writes allowed) and returns its number as the create answer gives it; undefined when orders.create is not selected. */
export async function createOrder(session: Session, env: EnvironmentName): Promise<{ res: ApiResponse; orderNumber?: string } | undefined> {
  const create = session.target.operations.find((o) => o.id === 'orders.create');
  if (!create) return undefined;
  const res = await session.call(create, env, { body: session.validBody(create, Date.now() % 1_000_000) });
  const n = valueAt(res.json, idSources.orderNumber.createdBy?.path ?? []);
  return { res, ...(res.status < 300 && typeof n === 'string' ? { orderNumber: n } : {}) };
}

/** Why a check that writes with the first of these operations and reads back with the others is out of scope, if it is. */
export function writeCheckScope(cfg: HarnessConfig, operations: readonly Operation[], ids: readonly string[]): OutOfScope | undefined {
  const missing = ids.filter((id) => !operations.some((o) => o.id === id));
  return firstScope(writesScope(cfg, ids[0] ?? 'the write'), selectedScope(missing));
}

/** The selected operations of these ids (the first one a write); out of scope unless writes are allowed and each is selected. */
export function selectedForWrite<const T extends readonly string[]>(session: Session, ids: T): { [K in keyof T]: Operation } {
  const scope = writeCheckScope(session.config, session.target.operations, ids);
  if (scope) outOfScope(test.info(), scope);
  return ids.map((id) => session.target.operations.find((o) => o.id === id)) as { [K in keyof T]: Operation };
}
