/**
 * The session of a worker: the HTTP client on the run's request budget, with what it does around each
 * request (the OPENAPI document's refusals before sending, the correlation ids after), its token client
 * and its id resolver.
 */
import { type TestInfo, test as base } from '@playwright/test';
import type { Fetcher } from '../../clients/fetcher';
import { RequestBudget, type ApiRequest, type ApiResponse, type Budget } from '../../clients/http';
import { requestLine } from '../../clients/sent-request';
import { redact } from '../../clients/redact';
import { tokensThrough } from '../../clients/target-session';
import { IdResolver } from '../../clients/ids';
import { basename, join } from 'node:path';
import type { OpenApiContract } from '../../openapi/import/openapi-contract';
import { RUN_DIR_ENV, SharedRequestBudget } from '../plan/run-budget';
import { runningCheck, writeCorrelationId } from '../record/annotations';
import { ExchangeLog } from '../record/exchange-log';
import type { ExchangeOwner } from '../record/har-entry';
import { SilenceAwareApiClient, SilenceWatch } from './silent-target';
import { blocked, notRun } from '../outcomes/outcomes';
import { Session } from './session';
import { BucketLocks } from './bucket-locks';
import { CallPace } from './call-pace';
import { harnessConfig, type Target } from './target';
import { segmentsOf } from '../judge/input-values';

/**
 * With OPENAPI: a request meant to be valid that the document refuses is a defect of the harness, reported
 * as such before it is sent (never sent silently). Checks that break a request on purpose are exempt.
 */
function refuseWhatTheDocumentRefuses(doc: OpenApiContract): (req: ApiRequest, headers: Readonly<Record<string, string>>) => void {
  return (req, headers) => {
    if (!req.operationId || req.deliberatelyInvalid === true) return;
    const broken = req.deliberatelyInvalid?.at;
    const problems = doc
      .requestProblems(req.operationId, { headers: { ...headers }, query: req.query ?? {}, body: req.json })
      .filter((p) => broken === undefined || !problemAt(p, broken));
    if (problems.length) {
      throw new Error(
        `Harness defect: the request of ${req.operationId} (${req.method} ${req.path}) breaks the OPENAPI document ${harnessConfig().openapiFile}, so it was not sent\n` +
          `Expected: a request the document accepts\nReceived: ${problems.join('; ')}\nWhat to do: fix the catalogue's request of ${req.operationId} or the configuration (IM_* variables)`,
      );
    }
  };
}

/**
 * Whether a problem the document finds (openapi/import: `query pageSize must be integer`, `body /lines/0/notes: must
 * be string`, `body /lines/0: must have required property 'notes'`) is at a location (`query pageSize`,
 * `body lines[].notes`): there, at a name below it, or its absence reported at its parent.
 */
export function problemAt(problem: string, location: string): boolean {
  if (!location.startsWith('body')) return problem.startsWith(`${location} `);
  const segments = segmentsOf(location);
  if (!segments.length) return problem.startsWith('body ');
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pointer = (of: readonly string[]) => of.map((s) => (s === '[]' ? '/\\d+' : `/${escape(s)}`)).join('') || '/';
  const name = segments.at(-1) as string;
  const here = new RegExp(`^body ${pointer(segments)}(/|:)`);
  const absent = new RegExp(`^body ${pointer(segments.slice(0, -1))}: must have required property '${escape(name)}'`);
  return here.test(problem) || (name !== '[]' && absent.test(problem));
}

/** The test running in this async context; undefined outside a test (a fixture's set-up). */
function currentTest(): TestInfo | undefined {
  try {
    return base.info();
  } catch {
    return undefined;
  }
}

/** The check an exchange belongs to: the running grouped check's, else the test's; none outside a test. */
const ownerOf = (info: TestInfo | undefined): ExchangeOwner | undefined =>
  info && { check: runningCheck()?.result.title ?? info.title, file: basename(info.file) };

/**
 * After every answer: its HAR entry in the run's exchange log, under the check it belongs to (the running
 * grouped check's, else the test's); and the request line and IM-CorrelationID of the last three requests of
 * the running check, for its evidence in the summary.
 */
function recordExchange(log: ExchangeLog | undefined): (res: ApiResponse) => void {
  return (res) => {
    const info = currentTest();
    log?.add(res, ownerOf(info));
    // Annotations reach Playwright's own reports unfiltered: the line (a token request's form included) is redacted here.
    if (info) writeCorrelationId(info, redact(`${requestLine(res)} → ${res.status}: IM-CorrelationID ${res.correlationId}`));
  };
}

/** The worker's exchange log (none without a run folder). */
let exchangeLog: ExchangeLog | undefined;

/** Writes the exchanges of the worker's session kept so far to the run's exchange log (at each test's end). */
export const flushExchanges = (): void => exchangeLog?.flush();

/**
 * The session of a worker: its HTTP client drawing on the run's request budget, its token client and
 * id resolver, with the run's shared files kept per `project`.
 */
export function openSession(target: Target, ctx: Fetcher, openapi: OpenApiContract | undefined, project: string): Session {
  const cfg = target.config;
  // The run's budget (global setup) when there is one; a worker's own otherwise (a run without global setup).
  const runDir = process.env[RUN_DIR_ENV];
  const budget: Budget = runDir
    ? new SharedRequestBudget(runDir, (message) => notRun(base.info(), message))
    : new RequestBudget(cfg.requestBudget ?? Infinity);
  exchangeLog = runDir ? new ExchangeLog(runDir) : undefined;
  const silence = new SilenceWatch(
    runDir ? { answered: join(runDir, `target-answered-${project}`), silent: join(runDir, `target-silent-${project}.txt`) } : undefined,
  );
  const api = new SilenceAwareApiClient(
    ctx,
    {
      baseUrl: target.baseUrl,
      budget,
      timeoutMs: cfg.requestTimeoutMs,
      maxBodyBytes: cfg.maxBodyBytes,
      extraHeaders: cfg.extraHeaders,
      imHeaders: cfg.imHeaders,
      onExchange: recordExchange(exchangeLog),
      onFailure: (sent, failure) => exchangeLog?.addFailure(sent, failure, ownerOf(currentTest())),
      ...(openapi ? { beforeSend: refuseWhatTheDocumentRefuses(openapi) } : {}),
    },
    silence,
    (reason) => blocked(base.info(), reason),
  );
  const locks = new BucketLocks(runDir, cfg.max429WaitMs, (reason) => blocked(base.info(), reason));
  const session = new Session(target, api, tokensThrough(api, cfg.credentials), budget, locks, new CallPace(cfg.concurrency));
  session.startOver(project);
  session.idResolver = new IdResolver({
    configured: cfg.knownIds,
    operations: target.operations,
    allowWrites: cfg.allowWrites,
    call: (op, env, body) => session.call(op, env, body === undefined ? {} : { body }),
    validBody: (op) => session.validBody(op),
    // Shared by the run's workers of the same scope (the project).
    cacheFile: (env) => (runDir ? join(runDir, `ids-${session.sharedScope}-${env}.json`) : undefined),
  });
  return session;
}
