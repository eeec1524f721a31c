/**
 * The suite's view of a target: calls built from the catalogue and the fixture world, with tokens,
 * ids from the target, the request budget, and what to do about a 401, a 429 or a 404.
 */
import { test as base } from '@playwright/test';
import { knownIds, requestFor } from '../../fixtures';
import { DEFAULT_SEED } from '../../fixtures/build-world';
import { familyBase, fillPath, type EnvironmentName, type Family, type IdName, type Ids, type Operation } from '../../catalogue';
import type { HarnessConfig } from '../../config/harness-config';
import { ApiClient, TargetFailure, assertUsable, evidenceOf, type ApiRequest, type ApiResponse, type Budget } from '../../clients/http';
import type { TokenClient } from '../../clients/token-client';
import { tokensThrough, waitBeforeAskingAgainMs } from '../../clients/target-session';
import { TokenError, type Credentials } from '../../clients/token-core';
import { redact } from '../../clients/redact';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { advertisedResetMs, intHeader, WEBHOOK_HEADERS } from '../../catalogue/rules';
import { signatureHeaders } from '../../clients/webhook-signature';
import { RUN_DIR_ENV } from '../plan/run-budget';
import { IdResolver, describeId, type ResolvedId } from '../../clients/ids';
import { writeIdSource } from '../record/annotations';
import { recordFinding } from '../record/finding-recorder';
import { recordEarlyRefusal } from '../judge/token-refusals';
import { logWrite } from './write-log';
import { callToken, sendRenewing, withToken, type Renewal, type TokenSource } from './token-renewal';
import { blocked, notRun, outOfScope } from '../outcomes/outcomes';
import { webhookSecretScope } from '../plan/scope';
import type { OutOfScope } from '../record/annotations';
import type { Target } from './target';

export type { CallOptions } from './call-options';
import { brokenOnPurpose, type CallOptions } from './call-options';
import { bucketKey, type BucketLocks } from './bucket-locks';
import type { CallPace } from './call-pace';
import type { SentRequest } from '../judge/answer-facts';

/** The suite's view of a target: build calls from the catalogue and the fixtures. */
export class Session {
  constructor(
    readonly target: Target,
    readonly api: ApiClient,
    readonly tokens: TokenClient,
    readonly budget: Budget,
    private readonly locks: BucketLocks,
    readonly pace: CallPace,
  ) {}

  /** 429s this worker met on calls no check asked a 429 of. */
  unexpected429s = 0;

  /** The bucket of an operation on this target (bucket-locks.ts). */
  private bucketOf(op: Pick<Operation, 'id'>): string {
    return bucketKey(this.target.baseUrl, op.id);
  }

  /**
   * Runs `use` with these operations' buckets to itself: no other check of the run calls them meanwhile (a check
   * that spends a bucket or compares its Remaining across calls).
   */
  exclusively<T>(ops: readonly Pick<Operation, 'id'>[], use: () => Promise<T>): Promise<T> {
    return this.locks.exclusively(
      ops.map((o) => this.bucketOf(o)),
      use,
    );
  }

  get config(): HarnessConfig {
    return this.target.config;
  }

  ids(): Record<string, string> {
    return knownIds(this.config.mock.seed || DEFAULT_SEED);
  }

  pathOf(op: Operation, env: EnvironmentName, params?: Record<string, string>): string {
    return `${familyBase(op.family, env)}${fillPath(op.path, { ...this.ids(), ...(params ?? {}) })}`;
  }

  /** A valid request of the operation (catalogue definition, fixture world; `ids` from the target). */
  request(op: Operation, n = 0, ids: Ids = {}): ReturnType<typeof requestFor> {
    return requestFor(op, this.config.mock.seed || DEFAULT_SEED, n, { ...this.ids(), ...ids });
  }

  /** Resolves ids from KNOWN_IDS, the target's search answers or created resources (set by the session fixture). */
  idResolver: IdResolver | undefined;

  /**
   * What the run's shared files (ids found, tokens the target could not issue) are kept per: the
   * project by default (set by the session fixture).
   */
  private scope = '';

  /** The key of the run's shared files of this session. */
  get sharedScope(): string {
    return this.scope;
  }

  /**
   * Starts over on a target whose state was reset: forgets this worker's tokens and ids, and keeps the
   * run's shared files under `scope` from now on (none of the previous state applies).
   */
  startOver(scope: string): void {
    this.tokens.clear();
    this.idResolver?.forget();
    this.scope = scope.replace(/[^\w.-]/g, '_');
  }

  /**
   * The ids an operation needs, from the target (see ids.ts); ids the check passes itself are used as
   * given. Without one, the check is not run with the reason.
   */
  private async idsFor(op: Operation, env: EnvironmentName, o: CallOptions): Promise<{ ids: Ids; used: ResolvedId[] }> {
    const ids: Partial<Record<IdName, string>> = {};
    const used: ResolvedId[] = [];
    for (const need of op.needs) {
      const given = need.in === 'path' ? o.params?.[need.as] : need.in === 'query' ? o.query?.[need.as] : undefined;
      if (given !== undefined || (need.in === 'body' && o.body !== undefined)) continue;
      const r = this.idResolver ? await this.idResolver.resolve(need.id, env) : undefined;
      if (!r) continue;
      if (!IdResolver.isResolved(r)) notRun(base.info(), r.reason);
      ids[need.id] = r.value;
      used.push(r);
    }
    const info = base.info();
    for (const u of used) writeIdSource(info, u);
    return { ids, used };
  }

  /**
   * A 404 for ids the target itself listed (or the run created) is a failure of the target; for
   * configured ids it is a finding about the configuration, and the check is not run.
   */
  private notFoundWithIds(op: Operation, env: EnvironmentName, res: ApiResponse, used: ResolvedId[]): never {
    const ids = used.map(describeId).join(', ');
    if (used.some((u) => u.origin === 'discovered' || u.origin === 'created')) {
      throw new Error(
        `Broken fact: ${op.id} is served at ${op.path} and answers for the ids the target itself listed (${env})\nExpected: 2xx for ${ids}\nReceived: ${evidenceOf(res)}`,
      );
    }
    recordFinding('errors.fixture-unknown', 'not-found', `configured ${ids} unknown to the target: ${evidenceOf(res)}`, {
      environment: env,
      operationId: op.id,
      family: op.family,
      policyFile: this.config.policyFile,
    });
    notRun(base.info(), `the configured ${ids} is unknown to the target (404): check KNOWN_IDS`);
  }

  /**
   * The webhook headers the document requires: `targeturl` (WEBHOOK_RECEIVER_URL, else a receiver no one
   * runs) and `x-hub-signature` over the event sent, with the app's webhook secret. A check's own headers win.
   */
  private webhookHeaders(event: unknown, given: Record<string, string> = {}): Record<string, string> {
    const secret = this.config.webhookSecret;
    if (!secret && given[WEBHOOK_HEADERS.signature] === undefined) outOfScope(base.info(), webhookSecretScope(this.config) as OutOfScope);
    return {
      ...(this.config.webhookReceiverUrl ? { [WEBHOOK_HEADERS.targetUrl]: this.config.webhookReceiverUrl } : {}),
      ...(secret ? signatureHeaders(event, secret) : {}),
      ...given,
    };
  }

  validBody(op: Operation, n = 0): unknown {
    return this.request(op, n).body ?? (op.jsonBody ? {} : undefined);
  }

  /** The request a call sends: the operation's valid request (with these ids), with the call's own parts over it. */
  private requestOf(
    op: Operation,
    env: EnvironmentName,
    o: CallOptions,
    ids: Ids,
    token: string | undefined,
  ): { req: ApiRequest; params: Record<string, string> } {
    const valid = this.request(op, 0, ids);
    const params = { ...this.ids(), ...valid.params, ...(o.params ?? {}) };
    const req: ApiRequest = {
      operationId: op.id,
      ...brokenOnPurpose(o),
      method: op.method,
      path: this.pathOf(op, env, params),
      query: withoutKeys({ ...valid.query, ...(o.query ?? {}) }, o.omitQuery),
      ...(token ? { token } : {}),
      ...(o.headers || valid.headers ? { headers: { ...(valid.headers ?? {}), ...(o.headers ?? {}) } } : {}),
      ...(o.omitHeaders ? { omitHeaders: o.omitHeaders } : {}),
    };
    if (op.jsonBody) req.json = o.editBody ? o.editBody(valid.body ?? {}) : (o.body ?? valid.body ?? {});
    if (op.webhook) req.headers = { ...req.headers, ...this.webhookHeaders(req.json, o.headers) };
    return { req, params };
  }

  /** Calls an operation with a valid request unless told otherwise; token defaults to the family's. */
  async call(op: Operation, env: EnvironmentName, o: CallOptions = {}): Promise<ApiResponse> {
    return (await this.exchange(op, env, o)).res;
  }

  /** As `call`, with the parts of the request that was sent (for checks that compare an answer with its request). */
  async exchange(op: Operation, env: EnvironmentName, o: CallOptions = {}): Promise<{ sent: SentRequest; res: ApiResponse }> {
    const source = { tokens: o.tokenFrom ?? this.tokens, family: op.family, environment: env };
    const token = await callToken(o.token, o.tokenFrom && source, () => this.token(op.family, env));
    const { ids, used } = await this.idsFor(op, env, o);
    const { req, params } = this.requestOf(op, env, o, ids, token);
    const sent: SentRequest = { params, query: req.query ?? {}, ...(req.json !== undefined ? { body: req.json } : {}) };
    const bucket = this.bucketOf(op);
    // The token is taken as the call leaves, after any wait for its bucket, and renewed when refused (session/token-renewal.ts).
    const send = (r: ApiRequest, pick?: () => Promise<string>) =>
      this.pace.call(bucket, () => this.locks.call(bucket, () => logWrite(op, env, async () => this.api.send(await withToken(r, pick)))));
    // A token the check gave itself is the request under test: never renewed.
    const renewed = token && o.token === undefined;
    const sendCall = () => (renewed ? sendRenewing(source, (pick) => send(req, pick), this.renewal(source, o.onTokenRefused)) : send(req));
    let res = await sendCall();
    // A 429 under test is returned as it came (its body is judged by the check, not classified here).
    if (res.status === 429 && o.allow429) return { sent, res };
    if (res.status === 429) {
      // Reported in the summary: a 429 no check asked for is waited out and sent again, never hidden.
      this.unexpected429s += 1;
      res = await this.waitOutLimit(res, req, sendCall);
    }
    if (res.status === 404 && used.length) this.notFoundWithIds(op, env, res, used);
    // A 5xx, an HTML page or broken JSON is classified (server-error, malformed-body) with its evidence.
    assertUsable(res);
    return { sent, res };
  }

  /**
   * A 429 in a test that is not about limits: on the mock, drop its windows (no real wait); elsewhere
   * wait for the reset if allowed, else block the test.
   */
  private async waitOutLimit(res: ApiResponse, req: ApiRequest, send: (r: ApiRequest) => Promise<ApiResponse>): Promise<ApiResponse> {
    if (this.target.control) {
      await this.target.control('PUT', '/limits', {});
      return send(req);
    }
    const now = Date.now();
    const resetAt = advertisedResetMs(intHeader(res.headers['x-ratelimit-reset']), now);
    const waitMs = waitBeforeAskingAgainMs(resetAt, now) ?? this.target.windowMs;
    const info = base.info();
    if (waitMs > this.config.max429WaitMs || waitMs > info.timeout - 5_000) {
      blocked(
        info,
        `the target answered 429 to ${req.method} ${req.path} and its reset is ${Math.round(waitMs / 1000)} s away (MAX_429_WAIT_MS ${this.config.max429WaitMs})`,
      );
    }
    await new Promise((r) => setTimeout(r, Math.max(0, waitMs)));
    const again = await send(req);
    if (again.status === 429) blocked(info, `the target still answered 429 to ${req.method} ${req.path} after waiting for its reset`);
    return again;
  }

  /**
   * The family's token. When the target could not issue it, the checks that need it are blocked with
   * that reason for the rest of the run (every worker): the token checks themselves report the
   * failure, once, instead of every check failing on the same cause.
   */
  async token(family: Family, env: EnvironmentName): Promise<string> {
    const memo = tokenFailureFile(this.scope, family, env);
    if (memo && existsSync(memo)) {
      blocked(base.info(), `no ${family} token for ${env}: ${readFileSync(memo, 'utf8')} (see the ${family} token checks)`);
    }
    try {
      return await this.tokens.token(family, env);
    } catch (e) {
      const targetsFault = (e instanceof TargetFailure && e.kind !== 'budget') || e instanceof TokenError;
      if (memo && targetsFault) writeFileSync(memo, redact((e as Error).message).slice(0, 500));
      throw e;
    }
  }

  /** A separate token client on this target (another app, or an injected clock). */
  tokenClient(credentials: Partial<Record<Family, Credentials>>, now?: () => number): TokenClient {
    return tokensThrough(this.api, credentials, now);
  }

  /** Sends a request with the family's token, renewed after a 401 (session/token-renewal.ts). */
  async sendAuthed(family: Family, env: EnvironmentName, req: Omit<ApiRequest, 'token'>): Promise<ApiResponse> {
    await this.token(family, env);
    const source = { tokens: this.tokens, family, environment: env };
    return sendRenewing(source, async (pick) => this.api.send({ ...req, token: await pick() }), this.renewal(source));
  }

  /** How a refused token is renewed: the refusal before the token's lifetimes ended is a finding. */
  private renewal(source: TokenSource, onRefused?: (refused: ApiResponse) => void): Renewal {
    const scope = { family: source.family, environment: source.environment, policyFile: this.config.policyFile };
    return { onRefused, onEarly: (early, refused, again) => recordEarlyRefusal(early, refused, again, scope) };
  }

  /** Sends a raw request (token flows, bad inputs). */
  send(req: ApiRequest): Promise<ApiResponse> {
    return this.api.send(req);
  }
}

const withoutKeys = (q: Record<string, string>, omit: readonly string[] = []): Record<string, string> =>
  omit.length ? Object.fromEntries(Object.entries(q).filter(([k]) => !omit.includes(k))) : q;

/** Where the run remembers that a family's token could not be obtained (undefined without a run folder). */
function tokenFailureFile(scope: string, family: Family, env: EnvironmentName): string | undefined {
  const dir = process.env[RUN_DIR_ENV];
  return dir ? join(dir, `token-failure-${scope}-${family}-${env}.txt`) : undefined;
}
