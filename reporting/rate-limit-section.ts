/**
 * The report's rate-limit section: per operation the limiter the probe identified (algorithm, burst,
 * sustained rate, window, refused calls, headers, pacing, the verdict or the doubt) and a plot of the allowed
 * and refused calls of the probe over time. Reads the probe-reset manifest and timeline as JSON.
 */

/** The fingerprint fields of a limits manifest entry (written by `npm run load -- probe-reset`). */
export interface FingerprintRow {
  id: string;
  environment: string;
  algorithm?: string;
  burst?: number | null;
  sustainedPerSecond?: number | null;
  windowMs?: number | null;
  refusedCallsCount?: boolean | null;
  headers?: string[];
  resetUnit?: string;
  resetMoves?: boolean | null;
  pacing?: { schedule: string } | null;
  verdict?: string | null;
  /** Readings that disagreed twice: the numbers are doubtful and the pacing is the cautious one. */
  uncertain?: string[] | null;
  evidence?: string[];
  requestsSpent?: number;
  durationMs?: number;
}

export interface FingerprintTimeline {
  operations: { id: string; environment: string; points?: { tMs: number; allowed: boolean; phase: string }[] }[];
}

export interface HtmlSection {
  html: string;
  /** Runs after chart.js is loaded. */
  script: string;
}

const plain = (v: unknown): string => (v === null || v === undefined ? '—' : String(v));

/** Cumulative allowed calls over time, with the refused calls marked where they fell. */
export function allowedRefusedSeries(points: readonly { tMs: number; allowed: boolean }[]): {
  allowed: { x: number; y: number }[];
  refused: { x: number; y: number }[];
} {
  let n = 0;
  const allowed: { x: number; y: number }[] = [];
  const refused: { x: number; y: number }[] = [];
  for (const p of points) {
    const x = Math.round(p.tMs);
    if (p.allowed) allowed.push({ x, y: ++n });
    else refused.push({ x, y: n });
  }
  return { allowed, refused };
}

export function renderRateLimitSection(
  limits: readonly FingerprintRow[] | undefined,
  timeline: FingerprintTimeline | undefined,
  esc: (s: unknown) => string,
): HtmlSection {
  const rows = (limits ?? []).filter((e) => e.algorithm !== undefined);
  if (!rows.length)
    return {
      html: '<section id="rate-limits"><h2>Rate limiters</h2><p class="note">No limiter fingerprint found (reports/load/limits.json from <code>npm run load -- probe-reset</code>).</p></section>',
      script: '',
    };
  const table = rows
    .map(
      (e) =>
        `<tr class="limiter"><td><code>${esc(e.id)}</code><div class="id">${esc(e.environment)}</div></td><td><b>${esc(e.algorithm)}</b></td><td class="n">${esc(plain(e.burst))}</td><td class="n">${esc(plain(e.sustainedPerSecond))}</td><td class="n">${esc(plain(e.windowMs))}</td><td>${esc(plain(e.refusedCallsCount))}</td><td>${esc(e.headers?.length ? e.headers.join(', ') : 'none')}</td><td>${esc(plain(e.resetUnit))} / ${esc(plain(e.resetMoves))}</td><td>${e.verdict ? `<span class="bad">no result: ${esc(e.verdict)}</span>` : e.uncertain?.length ? `<span class="bad">uncertain: ${esc(e.uncertain.join('; '))}</span><div>cautious pace: ${esc(e.pacing?.schedule ?? '—')}</div>` : esc(e.pacing?.schedule ?? '—')}</td><td class="n">${esc(plain(e.requestsSpent))} / ${esc(plain(e.durationMs === undefined ? undefined : Math.round(e.durationMs)))}</td><td>${e.evidence?.length ? `<details><summary>evidence</summary><pre>${esc(e.evidence.join('\n'))}</pre></details>` : '—'}</td></tr>`,
    )
    .join('\n');
  const byId = new Map((timeline?.operations ?? []).map((o) => [`${o.id}|${o.environment}`, o]));
  const plots = rows.map((e, i) => ({ e, i, points: byId.get(`${e.id}|${e.environment}`)?.points })).filter((p) => p.points?.length);
  const data = plots.map((p) => ({
    canvas: `limiter-${p.i}`,
    title: `${p.e.id}: ${p.e.algorithm}`,
    ...allowedRefusedSeries(p.points ?? []),
  }));
  const html = `<section id="rate-limits"><h2>Rate limiters: algorithm, burst, sustained rate and the pacing that draws no 429</h2>
<table id="limiters"><thead><tr><th>operation</th><th>algorithm</th><th>burst</th><th>sustained / s</th><th>window ms</th><th>refused calls count</th><th>headers</th><th>reset unit / moves</th><th>pacing</th><th>requests / ms</th><th>evidence</th></tr></thead><tbody>
${table}
</tbody></table>
<div class="charts">${data.map((d) => `<div><h3>${esc(d.title)}: allowed (line) and refused (dots) calls</h3><div class="chart"><canvas id="${esc(d.canvas)}"></canvas></div></div>`).join('')}</div>
<script id="limiter-data" type="application/json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script></section>`;
  const script = data.length
    ? `(function(){
  var plots = JSON.parse(document.getElementById('limiter-data').textContent);
  plots.forEach(function(p){
    new Chart(document.getElementById(p.canvas), {type:'scatter', data:{datasets:[
      {label:'allowed (cumulative)', data:p.allowed, borderColor:'#16a34a', backgroundColor:'#16a34a', showLine:true, stepped:true, pointRadius:1},
      {label:'refused (429)', data:p.refused, borderColor:'#dc2626', backgroundColor:'#dc2626', pointRadius:3}
    ]}, options:{responsive:true, maintainAspectRatio:false, animation:false, scales:{x:{type:'linear', title:{display:true, text:'ms since the first probe call'}}, y:{title:{display:true, text:'calls allowed so far'}}}}});
  });
})();`
    : '';
  return { html, script };
}
