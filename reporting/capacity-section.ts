/**
 * The capacity section of the report page, from reports/load/capacity.json (written by the capacity
 * k6 script's handleSummary): per operation the target and achieved rates, latency percentiles, 429s,
 * other errors and each threshold's verdict.
 */
export interface ThresholdVerdict {
  metric: string;
  expression: string;
  ok: boolean;
}

/** One operation of a capacity run. */
export interface CapacityRow {
  id: string;
  /** Iterations (one request each) per second the scenario asked for. */
  targetRate: number;
  /** Requests per second the target answered, over the scenario's duration. */
  achievedRate: number | null;
  requests: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  status429: number;
  /** Failed requests other than 429 (network errors, 4xx, 5xx). */
  errors: number;
  thresholds: ThresholdVerdict[];
  verdict: 'passed' | 'failed';
}

/** capacity.json, as the capacity k6 script writes it (load/scripts/capacity.ts). */
export interface CapacityResult {
  script: 'capacity';
  verdict: 'passed' | 'failed';
  durationMs: number;
  operations: CapacityRow[];
  /** Thresholds not tied to one operation. */
  thresholds: ThresholdVerdict[];
  target?: string;
  fraction?: number;
  duration?: string;
}

const ms = (v: number | null) => (v === null ? '—' : v.toFixed(1));

/** `esc` is the page's HTML escaper (it also redacts secrets). */
export function capacitySection(c: CapacityResult | undefined, esc: (s: unknown) => string): string {
  if (!c)
    return '<section id="capacity"><h2>Capacity</h2><p class="note">No capacity run found (reports/load/capacity.json): run <code>npm run load -- capacity</code> (k6) to measure it.</p></section>';
  const rows = c.operations
    .map(
      (o) =>
        `<tr class="cap" data-verdict="${esc(o.verdict)}"><td><code>${esc(o.id)}</code></td><td class="n">${esc(o.targetRate)}</td><td class="n">${esc(o.achievedRate ?? '—')}</td><td class="n">${esc(o.requests)}</td><td class="n">${ms(o.p50Ms)} / ${ms(o.p95Ms)} / ${ms(o.p99Ms)}</td><td class="n">${esc(o.status429)}</td><td class="n">${esc(o.errors)}</td><td>${
          o.thresholds.length
            ? o.thresholds
                .map(
                  (t) =>
                    `<div class="${t.ok ? 'good' : 'bad'}">${t.ok ? '✓' : '✗'} ${esc(t.metric.replace(/\{.*\}$/, ''))} <code>${esc(t.expression)}</code></div>`,
                )
                .join('')
            : '<div class="bad">no threshold evaluated</div>'
        }</td><td><span class="b ${esc(o.verdict)}">${esc(o.verdict)}</span></td></tr>`,
    )
    .join('\n');
  return `<section id="capacity"><h2>Capacity: ${esc(c.verdict.toUpperCase())}</h2><p>${esc(c.operations.length)} operations${c.fraction !== undefined ? ` at ${esc(c.fraction * 100)} % of their limits` : ''}${c.duration ? ` for ${esc(c.duration)}` : ''}${c.target ? ` against ${esc(c.target)}` : ''}; the k6 run's exit code follows these thresholds.</p><table id="capacity-table"><thead><tr><th>operation</th><th>target /s</th><th>achieved /s</th><th>requests</th><th>latency p50 / p95 / p99 ms</th><th>429s</th><th>errors</th><th>thresholds</th><th>verdict</th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
}
