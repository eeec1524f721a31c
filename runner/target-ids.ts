/**
 * The ids of a load run on a target other than the embedded mock (whose seeded data the plan knows):
 * found on the target before the plan is built, by the contract suite's IdResolver (clients/ids.ts),
 * in its order: KNOWN_IDS, then the same target's search or list answer, then (writes allowed) a
 * resource the run creates. An operation whose id is not found is left out of the plan, with the
 * reason: it is never probed with an id the target may not know. A listing the target refuses (429, or an
 * answer with Retry-After) is asked again after the time it advertised, when that is within the run's
 * longest wait (a previous run, or another job on the same app, may just have spent its quota).
 */
import type { APIRequestContext } from '@playwright/test';
import { allOperations, familyBase, fillPath, idSources, type EnvironmentName, type IdName, type Ids, type Operation } from '../catalogue';
import type { DeploymentSettings } from '../config/harness-config';
import { ApiClient, RequestBudget, type ApiRequest, type ApiResponse } from '../clients/http';
import { IdResolver, describeId, setKnownIds, type MissingId, type ResolvedId } from '../clients/ids';
import { redact, registerSecret } from '../clients/redact';
import { openTargetSession, waitBeforeAskingAgainMs, type TargetSession } from '../clients/target-session';
import { requestFor } from '../fixtures';
import type { NotRun } from '../load/plan/run-plan';
import { readRateLimitHeaders } from '../load/lib/rate-limit-hints';

export interface TargetIds {
  /** The ids of each operation that has all it needs, by operation id (operations that need none are absent). */
  ids: Map<string, Ids>;
  notRun: NotRun[];
  /** Requests sent to the target to find them, token requests included. */
  requests: number;
  /**
   * The operations the search called (listings), each with when its quota is fully back as its answer
   * advertised (epoch ms; null without rate-limit headers): a probe of one of them must start after it.
   */
  spent: SpentQuota[];
}

export interface SpentQuota {
  id: string;
  resetAtMs: number | null;
}

export interface TargetIdsOptions {
  /** The target's base URL: every call goes there and nowhere else. */
  baseUrl: string;
  environment: EnvironmentName;
  ops: readonly Operation[];
  /** Whether the run may create a resource to take its id (only where the command already sends writes). */
  allowWrites: boolean;
  /** Most requests the search may send. */
  budget: number;
  /**
   * Longest wait, ms, for a refused listing's advertised reset before it is asked again, as long as the
   * probe waits for a reopening (load/plan/probe-plan.ts longestWaitMs).
   */
  maxWaitMs: number;
  /** The run's seed: the fixture world fills in the listings' filters and bodies from it. */
  seed: number;
  /** Where each call and each id found is said. */
  say: (line: string) => void;
  /** The apps, IM-* headers, KNOWN_IDS and HTTP limits the search asks with. */
  deployment: DeploymentSettings;
}

/** The search's session on the target, opened at its first call (none when KNOWN_IDS holds every id). */
interface SearchClients extends TargetSession {
  ctx: APIRequestContext;
}

/** Most times one listing is asked again after a refusal (each wait within the run's longest wait in all). */
const MAX_ASKS_AGAIN = 3;

/**
 * Whether an answer refused the call (429, or any error answer with Retry-After), and when it may be asked
 * again (epoch ms): Retry-After, else the advertised reset (X-RateLimit-Reset in either unit, or the IETF
 * reset); null when it says neither. Undefined: not a refusal.
 */
export function askAgainAtMs(res: Pick<ApiResponse, 'status' | 'headers' | 'receivedAtMs'>): number | null | undefined {
  const hints = readRateLimitHeaders(res.headers, res.receivedAtMs);
  const refused = res.status === 429 || (res.status >= 400 && hints.styles.includes('retry-after'));
  if (!refused) return undefined;
  return hints.retryAtMs ?? hints.resetAtMs;
}

/** How long to wait before asking a refused listing again, or why it is not asked again. */
export function refusalWait(
  atMs: number | null,
  o: { nowMs: number; waitedMs: number; maxWaitMs: number; asksAgain: number },
): { waitMs: number } | { why: string } {
  const waitMs = waitBeforeAskingAgainMs(atMs, o.nowMs);
  if (waitMs === null) return { why: 'its answer advertised no Retry-After and no rate-limit reset to wait for' };
  const leftMs = o.maxWaitMs - o.waitedMs;
  if (waitMs > leftMs)
    return {
      why: `its advertised reset is ${(waitMs / 1000).toFixed(1)} s away, more than the ${(leftMs / 1000).toFixed(1)} s left of the ${(o.maxWaitMs / 1000).toFixed(1)} s a run waits (--probe-wait-ms)`,
    };
  if (o.asksAgain >= MAX_ASKS_AGAIN) return { why: `it was still refused after ${MAX_ASKS_AGAIN} waits for its advertised reset` };
  return { waitMs };
}

/**
 * Sends a listing; after a refusal, waits for the time the answer advertised and asks again, each wait said,
 * while that stays within the run's longest wait. The last answer, with why it was not asked again when refused.
 */
async function askWithinWait(
  send: () => Promise<ApiResponse>,
  id: string,
  o: Pick<TargetIdsOptions, 'maxWaitMs' | 'say'>,
): Promise<{ res: ApiResponse; unanswered?: string }> {
  let waitedMs = 0;
  for (let asksAgain = 0; ; asksAgain++) {
    const res = await send();
    const atMs = askAgainAtMs(res);
    if (atMs === undefined) return { res };
    const wait = refusalWait(atMs, { nowMs: Date.now(), waitedMs, maxWaitMs: o.maxWaitMs, asksAgain });
    if ('why' in wait) {
      const unanswered = `${id} answered ${res.status} and was not asked again (${wait.why})`;
      o.say(`load: id search: ${unanswered}`);
      return { res, unanswered };
    }
    o.say(
      `load: id search: ${id} answered ${res.status}: waiting ${(wait.waitMs / 1000).toFixed(1)} s for ${id}'s reset before asking for ids again`,
    );
    await new Promise((r) => setTimeout(r, wait.waitMs));
    waitedMs += wait.waitMs;
  }
}

/** Opens the search's HTTP and token clients: loaded only when a call is due (the embedded mock and a full KNOWN_IDS never pay for it). */
async function openSearchClients(o: TargetIdsOptions, budget: RequestBudget): Promise<SearchClients> {
  const { request } = await import('@playwright/test');
  const ctx = await request.newContext();
  const { requestTimeoutMs, maxBodyBytes, imHeaders, credentials } = o.deployment;
  const api = new ApiClient(ctx, {
    baseUrl: o.baseUrl,
    budget,
    timeoutMs: requestTimeoutMs,
    maxBodyBytes,
    // The plan's requests carry no EXTRA_HEADERS either: the search asks as the probe will.
    extraHeaders: {},
    imHeaders,
    onExchange: (res) => o.say(redact(`load: id search: ${res.method} ${res.url} → ${res.status}`)),
  });
  return { ...openTargetSession(api, credentials), ctx };
}

/**
 * The ids of each operation that needs some, in the plan's order; an operation with an id not found is not run,
 * with each missing id's reason (and the refusal of the listing that would have given it).
 */
async function idsOfOperations(
  needing: readonly Operation[],
  resolve: (name: IdName) => Promise<ResolvedId | MissingId>,
  unanswered: ReadonlyMap<string, string>,
): Promise<Pick<TargetIds, 'ids' | 'notRun'>> {
  const ids = new Map<string, Ids>();
  const notRun: NotRun[] = [];
  for (const op of needing) {
    const found: Partial<Record<IdName, string>> = {};
    const missing: string[] = [];
    for (const need of op.needs) {
      const r = await resolve(need.id);
      if (IdResolver.isResolved(r)) found[need.id] = r.value;
      else {
        const refusal = unanswered.get(idSources[need.id].from);
        missing.push(
          `it needs a ${need.id} of the target's data (${need.in} ${need.as}), and ${refusal ? `${refusal}, so ` : ''}${r.reason}`,
        );
      }
    }
    if (missing.length) notRun.push({ id: op.id, reason: missing.join('; ') });
    else ids.set(op.id, found);
  }
  return { ids, notRun };
}

export async function resolveTargetIds(o: TargetIdsOptions): Promise<TargetIds> {
  const needing = o.ops.filter((op) => op.needs.length > 0);
  if (!needing.length) return { ids: new Map(), notRun: [], requests: 0, spent: [] };
  const spent = new Map<string, number | null>();
  /** Listings refused and not asked again, with why: said in the reason of the ids they list. */
  const unanswered = new Map<string, string>();
  const budget = new RequestBudget(o.budget);
  for (const c of Object.values(o.deployment.credentials)) registerSecret(c.clientSecret);
  let clients: Promise<SearchClients> | undefined;
  const call = async (op: Operation, environment: EnvironmentName, body?: unknown): Promise<ApiResponse> => {
    const { api, tokens } = await (clients ??= openSearchClients(o, budget));
    // A listing needs no id; the fixture world only fills in its filters and body.
    const parts = requestFor(op, o.seed, 0, {});
    const req: ApiRequest = {
      operationId: op.id,
      method: op.method,
      path: `${familyBase(op.family, environment)}${fillPath(op.path, parts.params)}`,
      query: parts.query,
      token: await tokens.token(op.family, environment),
      ...(parts.headers ? { headers: parts.headers } : {}),
    };
    if (op.jsonBody) req.json = body ?? parts.body ?? {};
    const asked = await askWithinWait(
      async () => {
        const res = await api.send(req);
        spent.set(op.id, readRateLimitHeaders(res.headers, res.receivedAtMs).resetAtMs);
        return res;
      },
      op.id,
      o,
    );
    if (asked.unanswered) unanswered.set(op.id, asked.unanswered);
    return asked.res;
  };
  const resolver = new IdResolver({
    configured: o.deployment.knownIds,
    // The listing operations come from the catalogue, selected or not.
    operations: allOperations(),
    allowWrites: o.allowWrites,
    call,
    validBody: (op) => requestFor(op, o.seed).body ?? (op.jsonBody ? {} : undefined),
  });
  const said = new Set<string>();
  const resolve = async (name: IdName): Promise<ResolvedId | MissingId> => {
    try {
      const r = await resolver.resolve(name, o.environment);
      if (IdResolver.isResolved(r) && !said.has(name)) o.say(`load: ${describeId(r)}`);
      said.add(name);
      return r;
    } catch (e) {
      // No token, no credentials, the budget spent: the id stays unknown, with the cause.
      return { name, reason: `no ${name} looked up (${redact((e as Error).message)}); ${setKnownIds(name)}` };
    }
  };
  try {
    const { ids, notRun } = await idsOfOperations(needing, resolve, unanswered);
    return { ids, notRun, requests: budget.spent, spent: [...spent].map(([id, resetAtMs]) => ({ id, resetAtMs })) };
  } finally {
    await (await clients?.catch(() => undefined))?.ctx.dispose();
  }
}
