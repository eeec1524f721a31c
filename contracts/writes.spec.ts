/**
 * Writes read back: a cancel or a modify acknowledged is looked for in the order's details (creates are
 * read back in operations.spec.ts). The published document gives the state a cancelled order reads back
 * in (orderStatus Canceled; CANCELLED in the search filter) and the notes a modify sets, not when either
 * takes effect: what the reads show is a finding (writes.read-back), a broken fact on the embedded mock.
 */
import type { EnvironmentName, Operation } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { valueAt } from '../clients/ids';
import {
  READ_BACK_ATTEMPTS,
  createOrder,
  lookFor,
  recordReadBack,
  selectedForWrite,
  writeCheckScope,
  type ReadBack,
} from './exchanges/read-back';
import { test, expect, harnessConfig, label, selectedOperations, type Session } from './session/test';
import { CheckGroup } from './outcomes/check-groups';

const cfg = harnessConfig();

/** A fresh order, the write, and at most READ_BACK_ATTEMPTS reads of its details. */
const writeAndReadBack = (ids: readonly string[]) => ({
  unit: ids[0] as string,
  requests: 2 + READ_BACK_ATTEMPTS,
  outOfScope: writeCheckScope(cfg, selectedOperations(cfg), [...ids, 'orders.create']),
});
/** A read-back check's tags: the spec's, and the write's, which the run's greps select it by. */
const writeTags = (write: string): string[] => ['@operations', '@orders', '@writes', `@${write}`];

/** The document's spellings of a cancelled order's status: Canceled (details), CANCELLED (search filter, header level). */
const CANCELLED = /^cancel+ed$/i;

/** A fresh order's number; the check fails when the create answers none. */
async function freshOrder(session: Session, env: EnvironmentName): Promise<string> {
  const created = await createOrder(session, env);
  if (!created) throw new Error('orders.create is not selected');
  expect(created.orderNumber, `Broken fact: a created order has a number\nReceived: ${evidenceOf(created.res)}`).toBeTruthy();
  return created.orderNumber as string;
}

/**
 * Reads the order's details until `judge` sees the change (bounded): what the last read showed, with its
 * evidence. An answer without the field is unreadable, never a failure.
 */
async function readBack(
  session: Session,
  env: EnvironmentName,
  details: Operation,
  orderNumber: string,
  judge: (details: unknown) => ReadBack,
): Promise<{ seen: ReadBack; evidence: string }> {
  let last: { seen: ReadBack; res?: ApiResponse } = { seen: 'unreadable' };
  await lookFor(async () => {
    const res = await session.call(details, env, { params: { orderNumber } });
    last = { seen: res.status < 300 ? judge(res.json) : 'unreadable', res };
    return last.seen === 'unchanged' ? undefined : last.seen;
  });
  return { seen: last.seen, evidence: `orders.details ${orderNumber} → ${last.res ? evidenceOf(last.res) : 'not called'}` };
}

for (const env of cfg.environments) {
  // One check per write, several at once against a distant target (each writes to an order of its own).
  const writes = new CheckGroup<{ session: Session }>();
  writes.check(
    `should read a cancelled order back as cancelled in orders.details (${env})`,
    writeAndReadBack(['orders.cancel', 'orders.details']),
    async ({ session }) => {
      label(test.info(), 'orders.cancel', env, 'cancel-read-back');
      const [cancel, details] = selectedForWrite(session, ['orders.cancel', 'orders.details']);
      const orderNumber = await freshOrder(session, env);
      const res = await session.call(cancel, env, { params: { orderNumber } });
      expect(res, `Broken fact: ${cancel.id} cancels a fresh order (${env})\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(200, 299);
      const { seen, evidence } = await readBack(session, env, details, orderNumber, (json) => {
        const status = valueAt(json, ['orderStatus']);
        return typeof status !== 'string' ? 'unreadable' : CANCELLED.test(status) ? 'changed' : 'unchanged';
      });
      recordReadBack(session, env, cancel, seen, `cancelled ${orderNumber}; ${evidence}`);
    },
    writeTags('orders.cancel'),
  );

  writes.check(
    `should read a modified order's notes back in orders.details (${env})`,
    writeAndReadBack(['orders.modify', 'orders.details']),
    async ({ session }) => {
      label(test.info(), 'orders.modify', env, 'modify-read-back');
      const [modify, details] = selectedForWrite(session, ['orders.modify', 'orders.details']);
      const orderNumber = await freshOrder(session, env);
      const body = session.validBody(modify) as { notes?: string };
      const notes = `${body.notes ?? 'Modified'} ${Date.now() % 1_000_000}`;
      const res = await session.call(modify, env, { params: { orderNumber }, body: { ...body, notes } });
      expect(res, `Broken fact: ${modify.id} modifies a fresh order (${env})\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(200, 299);
      const { seen, evidence } = await readBack(session, env, details, orderNumber, (json) => {
        const read = valueAt(json, ['notes']);
        return typeof read !== 'string' ? 'unreadable' : read === notes ? 'changed' : 'unchanged';
      });
      recordReadBack(session, env, modify, seen, `notes "${notes}" sent to ${orderNumber}; ${evidence}`);
    },
    writeTags('orders.modify'),
  );

  test(`should read each write back in orders.details (${env})`, writes.details(), async ({ session }) =>
    writes.run({ session }, session.pace),
  );
}
