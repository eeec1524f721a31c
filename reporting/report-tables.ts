/** The report page's tables: the operations and their evidence, the findings ledger, the changes since the baseline. */
import { findingDefinitions } from '../catalogue';
import { percentile } from '../common/statistics';
import type { Finding, LeftOut, LimitsManifestEntry, OperationResult, RunSummary } from './report-shapes';
import { redact } from '../clients/redact';
import type { RunDiff } from './run-diff';

export const esc = (s: unknown): string =>
  redact(String(s ?? ''))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const badge = (s: string | undefined) => `<span class="b ${esc(s ?? 'none')}">${esc(s ?? '—')}</span>`;

function facet(row: OperationResult, fact: 'shape' | 'headers'): string {
  const st = row.checks['valid-call'];
  if (st !== 'failed') return st ?? 'skipped';
  const ev = row.evidence ?? '';
  if (fact === 'shape') return /schema|published shape|responses are JSON/.test(ev) ? 'failed' : 'passed';
  return /X-RateLimit|x-ratelimit/.test(ev) ? 'failed' : 'passed';
}

/** One table row per operation row of the run, with the measured limit of the load manifest. */
export function operationRows(summary: RunSummary, limits: LimitsManifestEntry[] | undefined): string {
  const lim = new Map((limits ?? []).map((e) => [`${e.id}|${e.environment}`, e]));
  return summary.operations
    .map((r, i) => {
      const m = lim.get(`${r.id}|${r.environment}`);
      const p50 = percentile(r.latencyMs ?? [], 50);
      const p95 = percentile(r.latencyMs ?? [], 95);
      return `<tr class="op" data-status="${esc(r.status)}"><td>${esc(r.family)}</td><td><code>${esc(r.method)}</code></td><td><code>${esc(r.path)}</code><div class="id">${esc(r.id)}</div></td><td>${esc(r.environment)}</td><td>${badge(r.status)}</td><td>${badge(facet(r, 'shape'))}</td><td>${badge(facet(r, 'headers'))}</td><td>${badge(r.checks.auth)}</td><td class="n">${esc(r.advertisedLimit ?? '—')}</td><td class="n">${esc(m?.observedLimit ?? '—')}</td><td class="n">${esc(m?.resetErrorMs ?? '—')}</td><td class="n">${p50 === null ? '—' : p50.toFixed(1)} / ${p95 === null ? '—' : p95.toFixed(1)}</td><td>${r.evidence ? `<a href="#ev${i}">evidence</a>` : '—'}</td></tr>`;
    })
    .join('\n');
}

/** The evidence of each operation row that has some, as a collapsed block the row links to. */
export function evidenceBlocks(summary: RunSummary): string {
  return summary.operations
    .map((r, i) =>
      r.evidence
        ? `<details id="ev${i}"><summary>${esc(r.id)} (${esc(r.environment)})</summary><pre>${esc(r.evidence)}</pre></details>`
        : '',
    )
    .join('');
}

/** One row per defined finding: what the run observed, its observations and its policy. */
export function findingsLedger(findings: Finding[]): string {
  const byBase = new Map<string, Finding[]>();
  for (const f of findings) byBase.set(f.id.split('@')[0] as string, [...(byBase.get(f.id.split('@')[0] as string) ?? []), f]);
  return findingDefinitions
    .map((d) => {
      const fs = byBase.get(d.id) ?? [];
      const observed = [...new Set(fs.map((f) => f.observed))].join(', ') || 'not probed in this run';
      const pinned = fs.find((f) => f.policy);
      return `<tr class="finding"><td><code>${esc(d.id)}</code><div class="id">${esc(d.kind)}</div></td><td>${esc(d.statement)}</td><td><b>${esc(observed)}</b></td><td>${fs.length ? `<details><summary>${fs.length} observation(s)</summary><pre>${esc(fs.map((f) => `${f.id}: ${f.evidence}`).join('\n\n'))}</pre></details>` : '—'}</td><td>${pinned ? esc(pinned.policy?.strict ? 'strict' : `pinned: ${pinned.policy?.expected}`) + (pinned.policy?.violated ? ' (violated)' : '') : 'not pinned'}</td></tr>`;
    })
    .join('\n');
}

/** The changes since the baseline run; empty without a baseline. */
export function diffSection(diff: RunDiff | undefined): string {
  if (!diff) return '';
  return `<section id="diff"><h2>Changes since the baseline run (${esc(diff.baseline.startedAt)})</h2>${
    diff.changed
      ? `<ul>${[
          ...diff.newlyFailing.map((t) => `<li class="bad">newly failing: ${esc(t)}</li>`),
          ...diff.newlyPassing.map((t) => `<li class="good">newly passing: ${esc(t)}</li>`),
          ...diff.limitsChanged.map(
            (l) => `<li>${esc(l.source)} limit of ${esc(l.id)} (${esc(l.environment)}): ${esc(l.before)} → ${esc(l.after)}</li>`,
          ),
          ...diff.algorithmsChanged.map(
            (a) => `<li class="bad">rate limiter of ${esc(a.id)} (${esc(a.environment)}): ${esc(a.before)} → ${esc(a.after)}</li>`,
          ),
          ...diff.findingsChanged.map((f) => `<li>finding ${esc(f.id)}: ${esc(f.before ?? 'absent')} → ${esc(f.after ?? 'absent')}</li>`),
          ...diff.headersAppeared.map((h) => `<li>header appeared on ${esc(h.row)}: ${esc(h.header)}</li>`),
          ...diff.headersDisappeared.map((h) => `<li class="bad">header disappeared on ${esc(h.row)}: ${esc(h.header)}</li>`),
          ...diff.fieldsAppeared.map((h) => `<li>field appeared on ${esc(h.row)}: ${esc(h.field)}</li>`),
          ...diff.fieldsDisappeared.map((h) => `<li class="bad">field disappeared on ${esc(h.row)}: ${esc(h.field)}</li>`),
        ].join('')}</ul>`
      : '<p>No change in behaviour.</p>'
  }</section>`;
}

const LEFT_OUT_HEADINGS: Record<LeftOut['kind'], string> = {
  'not-run': 'Not judged: not run',
  blocked: 'Not judged: blocked',
  'out-of-scope': 'Out of scope (what brings it in)',
  'not-applicable': 'Not applicable to this target',
};

/** The checks without a verdict, the three kinds apart: not judged (exit 99), out of scope and not applicable (listed only). */
export function leftOutSection(leftOut: readonly LeftOut[]): string {
  if (!leftOut.length) return '';
  const rows = leftOut
    .map(
      (l) =>
        `<tr class="left-out" data-kind="${esc(l.kind)}"><td>${esc(LEFT_OUT_HEADINGS[l.kind])}</td><td>${esc(l.reason)}</td><td>${esc(l.bringsIn ?? '—')}</td><td class="n">${l.checks}</td></tr>`,
    )
    .join('\n');
  return `<section><h2>Checks without a verdict</h2><table id="left-out"><thead><tr><th>kind</th><th>reason</th><th>brought in by</th><th>checks</th></tr></thead><tbody>\n${rows}\n</tbody></table></section>`;
}
