/**
 * The probe logic shared by probe-limits and probe-reset: every bucket is exhausted in parallel
 * (one batch per round, one request per unfinished operation), then optionally polled until it refills.
 */
import http from 'k6/http';
import type { RefinedResponse, ResponseType } from 'k6/http';
import { sleep } from 'k6';
import {
  analyseLimit,
  advertisedResetMs,
  detectResetUnit,
  header,
  limitProbeRequests,
  probeCap,
  type ProbeSample,
} from '../lib/limit-analysis';
import { Fingerprinter, type RateLimitFingerprint, type TimelinePoint } from '../lib/fingerprint';
import { readRateLimitHeaders } from '../lib/rate-limit-hints';
import type { LimitsManifestEntry } from '../../reporting/report-shapes';
import { notRunLines, notRunOf, stamp, type Plan, type PlannedOperation } from '../plan/run-plan';
import { fetchTokens, requestOf, probeSampleOf } from './requests';
import { breachLines, exhaustionReading, fingerprintReading, judgeLimit, type LimitVerdict } from '../lib/limit-verdicts';
import { refusalEvidence, type RefusalEvidence } from '../lib/refusal-body';
import { fingerprintConfig, isWrite, readsNamedOf, writesAfterReads } from '../plan/probe-plan';

export { fingerprintConfig };

export interface OperationProbe {
  op: PlannedOperation;
  samples: ProbeSample[];
  /** Epoch ms of the first request of the probe (the window start). */
  startedMs: number;
  /** Epoch ms each request was sent (a batch's alike), one per sample. */
  sentMs: number[];
  /** The first refusal, as the target sent it. */
  refusal: RefusalEvidence | null;
  advertisedResetMs: number | null;
  observedRefillMs: number | null;
  polls: number;
  /** probe-reset: the fingerprint of the limiter. */
  result?: RateLimitFingerprint & { timeline: TimelinePoint[] };
}

export interface ProbeResult {
  plan: Omit<Plan, 'operations'>;
  probes: OperationProbe[];
  durationMs: number;
  requests: number;
}

function sleepUntil(ms: number): void {
  const wait = ms - Date.now();
  // k6's sleep takes seconds.
  if (wait > 0) sleep(wait / 1000);
}

/** One empty probe per planned operation. */
function newProbes(p: Plan): OperationProbe[] {
  return p.operations.map((op) => ({
    op,
    samples: [],
    startedMs: 0,
    sentMs: [],
    refusal: null,
    advertisedResetMs: null,
    observedRefillMs: null,
    polls: 0,
  }));
}

/** Records a call's answer: its sample, the probe's start with the first, its evidence with the first refusal. */
function recordAnswer(pr: OperationProbe, sentMs: number, s: ProbeSample, res: RefinedResponse<ResponseType | undefined>): void {
  if (pr.samples.length === 0) pr.startedMs = firstCallMs(sentMs, s.tMs);
  pr.samples.push(s);
  pr.sentMs.push(sentMs);
  if (s.status === 429 && pr.refusal === null) {
    const h = res.headers as Record<string, string>;
    pr.refusal = refusalEvidence(res.status, header(h, 'Content-Type'), typeof res.body === 'string' ? res.body : null);
  }
}

/**
 * When the target counted the first call: between its sending and its answer, so the middle. A slow
 * answer (a busy target or client) would otherwise start the first window late, and the refill it
 * predicts (resetErrorMs) would come after the advertised reset by that delay.
 */
function firstCallMs(sentMs: number, answeredMs: number): number {
  return Math.round((sentMs + answeredMs) / 2);
}

export function runProbe(p: Plan): ProbeResult {
  const started = Date.now();
  const tokens = fetchTokens(p);
  let requests = 0;
  const probes = newProbes(p);
  const done = new Set<string>();
  // Exhaust every bucket, at most L+2 requests each.
  for (let round = 0; done.size < probes.length && requests < p.budget; round++) {
    const active = probes.filter((pr) => !done.has(pr.op.id));
    const sentMs = Date.now();
    const responses = http.batch(active.map((pr) => requestOf(p, pr.op, tokens)) as never);
    requests += active.length;
    active.forEach((pr, i) => {
      const res = (responses as unknown as RefinedResponse<ResponseType | undefined>[])[i] as RefinedResponse<ResponseType | undefined>;
      const s = probeSampleOf(p, res);
      recordAnswer(pr, sentMs, s, res);
      const cap = probeCap(pr.samples[0]?.limit ?? null, limitProbeRequests(pr.op.catalogueLimit));
      if (s.status === 429) {
        pr.advertisedResetMs = advertisedResetMs(s.reset, s.tMs);
        done.add(pr.op.id);
      } else if (s.status === 0 || s.status >= 500 || s.status === 401 || s.status === 404 || pr.samples.length >= cap) {
        done.add(pr.op.id);
      }
    });
  }
  const { operations: _ops, ...meta } = p;
  return { plan: meta, probes, durationMs: Date.now() - started, requests };
}

/**
 * probe-reset: the fingerprint experiments on every operation at once. Each round sends one call
 * to every operation whose next call is due (one batch), then sleeps until the next one is due.
 */
/** Rounds of warm-up calls before the fingerprint (one call per operation each). */
const WARMUP_ROUNDS = 4;

export function runFingerprint(p: Plan): ProbeResult {
  const started = Date.now();
  const tokens = fetchTokens(p);
  let requests = 0;
  const probes = newProbes(p);
  // Warm the connections and the code paths on a path no limiter counts per operation, so the
  // exhaustion is not slowed by the first calls (a slow exhaustion spreads a sliding log's slots).
  for (let i = 0; i < WARMUP_ROUNDS; i++)
    http.batch(probes.map(() => ['GET', `${p.baseUrl}/`, null, { tags: { operation: 'warmup' } }]) as never);
  // Kept out of the probes: setup data must be plain JSON.
  const fps = probes.map((pr) => new Fingerprinter(fingerprintConfig(p, pr.op)));
  const fpOf = (pr: OperationProbe): Fingerprinter => fps[probes.indexOf(pr)] as Fingerprinter;
  const tellWrites = readsTeller(p, probes, fpOf);
  for (;;) {
    tellWrites();
    const pending = probes.filter((pr) => !fpOf(pr).done && !fpOf(pr).waiting);
    if (!pending.length) break;
    if (requests >= p.budget) {
      for (const pr of probes.filter((pr) => !fpOf(pr).done)) fpOf(pr).abandon(`the run's budget of ${p.budget} requests is spent`);
      break;
    }
    sleepUntil(Math.min(...pending.map((pr) => fpOf(pr).nextAt() as number)));
    const now = Date.now();
    // One call per due operation, or all the calls of a volley (sent at once: no refill between them).
    const due = pending
      .filter((pr) => (fpOf(pr).nextAt() as number) <= now + 1)
      .flatMap((pr) => Array<OperationProbe>(fpOf(pr).nextCount()).fill(pr));
    const responses = http.batch(due.map((pr) => requestOf(p, pr.op, tokens)) as never) as unknown as RefinedResponse<
      ResponseType | undefined
    >[];
    requests += due.length;
    due.forEach((pr, i) => {
      const res = responses[i] as RefinedResponse<ResponseType | undefined>;
      const s = probeSampleOf(p, res);
      recordAnswer(pr, now, s, res);
      fpOf(pr).record({
        sentMs: now,
        tMs: s.tMs,
        status: s.status,
        hints: readRateLimitHeaders(res.headers as Record<string, string>, s.tMs),
      });
    });
  }
  for (const pr of probes) {
    const fp = fpOf(pr).result();
    pr.result = fp;
    const first429 = pr.samples.find((s) => s.status === 429);
    pr.advertisedResetMs = first429 ? advertisedResetMs(first429.reset, first429.tMs) : null;
    // The first window ends one window after the first call (the refine measured it).
    pr.observedRefillMs = fp.windowMs !== null && fp.algorithm !== 'token-bucket' ? pr.startedMs + fp.windowMs : null;
    pr.polls = fp.requestsSpent;
  }
  const { operations: _ops, ...meta } = p;
  return { plan: meta, probes, durationMs: Date.now() - started, requests };
}

/** Once every read operation is done, tells each write (waiting or not yet) what they were all named; once. */
function readsTeller(p: Plan, probes: OperationProbe[], fpOf: (pr: OperationProbe) => Fingerprinter): () => void {
  const reads = probes.filter((pr) => !isWrite(pr.op));
  const writes = probes.filter((pr) => isWrite(pr.op));
  let told = !writesAfterReads(p);
  return () => {
    if (told || !reads.every((pr) => fpOf(pr).done)) return;
    const named = readsNamedOf(reads.map((pr) => ({ id: pr.op.id, result: fpOf(pr).result() })));
    for (const pr of writes) fpOf(pr).readsAre(named);
    told = true;
  };
}

export type FingerprintManifestEntry = LimitsManifestEntry &
  Partial<RateLimitFingerprint> & {
    /** The advertised limit honoured and the documented 429: the probe's verdict on this operation. */
    limitVerdict?: LimitVerdict;
    refusal?: RefusalEvidence | null;
  };

/** The verdict on one probed operation: by the fingerprint's burst (probe-reset), else by the exhaustion. */
function limitVerdictOf(pr: OperationProbe, windowMs: number): LimitVerdict {
  const calls = { samples: pr.samples, sentMs: pr.sentMs, refusal: pr.refusal };
  return judgeLimit(pr.result ? fingerprintReading(calls, pr.result) : exhaustionReading(calls, windowMs));
}

export function manifestOf(r: ProbeResult): FingerprintManifestEntry[] {
  return r.probes.map((pr) => {
    const a = analyseLimit(pr.samples);
    const unit = detectResetUnit(pr.samples.find((s) => s.status === 429)?.reset ?? pr.samples[0]?.reset ?? null);
    const base: LimitsManifestEntry = {
      id: pr.op.id,
      method: pr.op.method,
      path: pr.op.pathTemplate,
      environment: r.plan.environment,
      advertisedLimit: a.advertisedLimit,
      observedLimit: a.observedLimit,
      remainingStep: a.remainingStep,
      windowMs: pr.observedRefillMs !== null ? pr.observedRefillMs - pr.startedMs : null,
      resetUnit: unit,
      resetErrorMs: pr.observedRefillMs !== null && pr.advertisedResetMs !== null ? pr.observedRefillMs - pr.advertisedResetMs : null,
      requestsSpent: a.requestsSpent,
      ...(a.inconclusive ? { inconclusive: a.inconclusive } : {}),
    };
    const judged = { limitVerdict: limitVerdictOf(pr, r.plan.windowMs), refusal: pr.refusal };
    if (!pr.result) return { ...base, ...judged };
    const { timeline: _t, ...fp } = pr.result;
    return { ...base, ...fp, resetUnit: fp.resetUnit === 'unknown' ? unit : fp.resetUnit, ...judged };
  });
}

/** Operations the probe could not fingerprint (a verdict, or no algorithm named). */
export function unresolved(entries: FingerprintManifestEntry[]): FingerprintManifestEntry[] {
  return entries.filter((e) => e.algorithm !== undefined && (e.verdict !== null || e.algorithm === 'unknown'));
}

function table(entries: FingerprintManifestEntry[], plan: Pick<Plan, 'notRun'>): string {
  const withFp = entries.some((e) => e.algorithm !== undefined);
  const head = `${'operation'.padEnd(30)}${'advertised'.padStart(11)}${'observed'.padStart(10)}${'step1'.padStart(7)}${'window ms'.padStart(11)}${'reset err'.padStart(11)}${'requests'.padStart(10)}${withFp ? `  ${'algorithm'.padEnd(15)}${'burst'.padStart(6)}${'per s'.padStart(9)}  refused count` : ''}`;
  const rows = entries.map(
    (e) =>
      `${e.id.padEnd(30)}${String(e.advertisedLimit ?? '-').padStart(11)}${String(e.observedLimit ?? '-').padStart(10)}${String(e.remainingStep).padStart(7)}${String(e.windowMs ?? '-').padStart(11)}${String(e.resetErrorMs ?? '-').padStart(11)}${String(e.requestsSpent).padStart(10)}${withFp ? `  ${String(e.algorithm).padEnd(15)}${String(e.burst ?? '-').padStart(6)}${String(e.sustainedPerSecond ?? '-').padStart(9)}  ${String(e.refusedCallsCount ?? '-')}` : ''}`,
  );
  const notes = entries.flatMap((e) => [
    ...(e.pacing ? [`  ${e.id}: pace ${e.pacing.schedule}`] : []),
    ...(e.verdict ? [`  ${e.id}: NO RESULT: ${e.verdict}`] : []),
    ...(e.inconclusive ? [`  ${e.id}: NO LIMIT: ${e.inconclusive}`] : []),
    ...breachLines(e.id, e.limitVerdict ?? { breaches: [] }).map((l) => `  FAILED: ${l}`),
    ...(e.limitVerdict?.notJudged ?? []).map((l) => `  ${e.id}: NOT JUDGED: ${l}`),
  ]);
  notes.push(...notRunLines(plan));
  return [head, ...rows, ...notes].join('\n');
}

/** handleSummary of both probes: the manifest, the timeline, the raw summary and a table. */
export function probeSummary(script: string, data: { setup_data?: ProbeResult } & Record<string, unknown>): Record<string, string> {
  const r = data.setup_data;
  if (!r) return { stdout: `${script}: setup produced no probe result\n` };
  const entries = manifestOf(r);
  const out = r.plan.outDir;
  const timeline = {
    windowMs: r.plan.windowMs,
    operations: r.probes.map((pr) => ({
      id: pr.op.id,
      environment: r.plan.environment,
      advertisedResetMs: pr.advertisedResetMs,
      observedRefillMs: pr.observedRefillMs,
      samples: pr.samples.map((s) => ({ ...s, tMs: s.tMs - pr.startedMs })),
      ...(pr.result ? { algorithm: pr.result.algorithm, points: pr.result.timeline } : {}),
    })),
  };
  const { setup_data: _drop, ...metrics } = data;
  return {
    [`${out}/limits.json`]: JSON.stringify(
      { operations: entries, ...notRunOf(r.plan), durationMs: r.durationMs, requests: r.requests },
      null,
      2,
    ),
    [`${out}/probe-timeline.json`]: JSON.stringify(timeline, null, 2),
    [`${out}/${script}-${stamp()}.json`]: JSON.stringify(
      { script, durationMs: r.durationMs, requests: r.requests, operations: entries, ...notRunOf(r.plan), metrics },
      null,
      2,
    ),
    stdout: `\n${script}: ${entries.length} operations, ${r.requests} requests, ${r.durationMs} ms\n${table(entries, r.plan)}\n`,
  };
}
