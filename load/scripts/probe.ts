/**
 * The probe logic shared by probe-limits and probe-reset: every bucket is exhausted in parallel
 * (one batch per round, one request per unfinished operation), then optionally polled until it refills.
 */
import http from 'k6/http';
import { sleep } from 'k6';
import { analyseLimit, advertisedResetMs, detectResetUnit, nextPollAt, probeCap, type Sample } from '../lib/probe';
import type { LimitsManifestEntry } from '../../catalogue';
import { fetchTokens, requestOf, sampleOf, stamp, type Plan, type PlannedOperation } from './common';

export interface OperationProbe {
  op: PlannedOperation;
  samples: Sample[];
  /** Epoch ms of the first request of the probe (the window start). */
  startedMs: number;
  advertisedResetMs: number | null;
  observedRefillMs: number | null;
  polls: number;
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

export function runProbe(p: Plan, withReset: boolean): ProbeResult {
  const started = Date.now();
  const tokens = fetchTokens(p);
  let requests = 0;
  const probes: OperationProbe[] = p.operations.map((op) => ({
    op,
    samples: [],
    startedMs: 0,
    advertisedResetMs: null,
    observedRefillMs: null,
    polls: 0,
  }));
  const done = new Set<string>();
  // Phase 1: exhaust every bucket, at most L+2 requests each.
  for (let round = 0; done.size < probes.length && requests < p.budget; round++) {
    const active = probes.filter((pr) => !done.has(pr.op.id));
    const responses = http.batch(active.map((pr) => requestOf(p, pr.op, tokens)) as never);
    requests += active.length;
    active.forEach((pr, i) => {
      const s = sampleOf((responses as never[])[i] as never);
      if (pr.samples.length === 0) pr.startedMs = s.tMs;
      pr.samples.push(s);
      const cap = probeCap(pr.samples[0]?.limit ?? null, pr.op.catalogueLimit + 2);
      if (s.status === 429) {
        pr.advertisedResetMs = advertisedResetMs(s.reset, s.tMs);
        done.add(pr.op.id);
      } else if (s.status === 0 || s.status >= 500 || s.status === 401 || s.status === 404 || pr.samples.length >= cap) {
        done.add(pr.op.id);
      }
    });
  }
  if (withReset) {
    // Phase 2: poll each exhausted bucket, coarsely far from its advertised reset and finely near it.
    const waiting = probes.filter((pr) => pr.samples[pr.samples.length - 1]?.status === 429);
    const nextAt = new Map(waiting.map((pr) => [pr.op.id, nextPollAt(Date.now(), pr.advertisedResetMs)]));
    const deadline = Date.now() + p.windowMs * 3 + 5000;
    while (nextAt.size && Date.now() < deadline && requests < p.budget) {
      const soonest = Math.min(...nextAt.values());
      sleepUntil(soonest);
      const due = waiting.filter((pr) => nextAt.has(pr.op.id) && (nextAt.get(pr.op.id) as number) <= Date.now() + 1);
      if (!due.length) continue;
      const responses = http.batch(due.map((pr) => requestOf(p, pr.op, tokens)) as never);
      requests += due.length;
      due.forEach((pr, i) => {
        const s = sampleOf((responses as never[])[i] as never);
        pr.samples.push(s);
        pr.polls += 1;
        if (s.status !== 429) {
          pr.observedRefillMs = s.tMs;
          nextAt.delete(pr.op.id);
        } else nextAt.set(pr.op.id, nextPollAt(Date.now(), pr.advertisedResetMs));
      });
    }
  }
  const { operations: _ops, ...meta } = p;
  return { plan: meta, probes, durationMs: Date.now() - started, requests };
}

export function manifestOf(r: ProbeResult): LimitsManifestEntry[] {
  return r.probes.map((pr) => {
    const a = analyseLimit(pr.samples);
    const unit = detectResetUnit(pr.samples.find((s) => s.status === 429)?.reset ?? pr.samples[0]?.reset ?? null);
    return {
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
    };
  });
}

function table(entries: LimitsManifestEntry[]): string {
  const head = `${'operation'.padEnd(30)}${'advertised'.padStart(11)}${'observed'.padStart(10)}${'step1'.padStart(7)}${'window ms'.padStart(11)}${'reset err'.padStart(11)}${'requests'.padStart(10)}`;
  const rows = entries.map(
    (e) =>
      `${e.id.padEnd(30)}${String(e.advertisedLimit ?? '-').padStart(11)}${String(e.observedLimit ?? '-').padStart(10)}${String(e.remainingStep).padStart(7)}${String(e.windowMs ?? '-').padStart(11)}${String(e.resetErrorMs ?? '-').padStart(11)}${String(e.requestsSpent).padStart(10)}`,
  );
  return [head, ...rows].join('\n');
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
    })),
  };
  const { setup_data: _drop, ...metrics } = data;
  return {
    [`${out}/limits.json`]: JSON.stringify({ operations: entries, durationMs: r.durationMs, requests: r.requests }, null, 2),
    [`${out}/probe-timeline.json`]: JSON.stringify(timeline, null, 2),
    [`${out}/${script}-${stamp()}.json`]: JSON.stringify(
      { script, durationMs: r.durationMs, requests: r.requests, operations: entries, metrics },
      null,
      2,
    ),
    stdout: `\n${script}: ${entries.length} operations, ${r.requests} requests, ${r.durationMs} ms\n${table(entries)}\n`,
  };
}
