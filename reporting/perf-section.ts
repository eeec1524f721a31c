/**
 * The performance comparison section of the report page: per operation the verdict, the change of the median and
 * of p95 with their 95 % intervals, the error and 429 rates, and both runs' latency distributions drawn over each
 * other (chart.js, inlined by the page).
 */
import type { CapacityRunComparison } from './capacity-runs';
import { neededOf, thresholdWords } from './capacity-runs';
import type { Change, OperationComparison } from './perf-compare';

const signed = (v: number, digits = 1) => `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;

function latencyCell(c: Change<string>): string {
  return `${c.baseline.toFixed(1)} → ${c.current.toFixed(1)} ms<div class="id">${signed(c.change)} ms, 95 % [${signed(c.interval[0])}, ${signed(c.interval[1])}], counts beyond ±${c.margin.toFixed(1)}: ${c.verdict}</div>`;
}

function rateCell(c: Change<string>): string {
  return `${(c.baseline * 100).toFixed(2)} → ${(c.current * 100).toFixed(2)} %<div class="id">${c.verdict}</div>`;
}

const VERDICT_CLASS: Record<OperationComparison['verdict'], string> = {
  slower: 'failed',
  faster: 'passed',
  'no change detected': 'none',
  'not enough data': 'blocked',
};

/** The section; empty without a comparison. `esc` is the page's escaper. */
export function perfSection(c: CapacityRunComparison | undefined, esc: (s: unknown) => string): { html: string; script: string } {
  if (!c) return { html: '', script: '' };
  const rows = c.operations
    .map((op, i) => {
      const verdict = `<span class="b ${VERDICT_CLASS[op.verdict]}">${esc(op.verdict)}</span>${
        op.verdict === 'not enough data' ? `<div class="id">about ${esc(neededOf(op))} requests per run would decide</div>` : ''
      }${op.regressions.map((r) => `<div class="bad">${esc(r)}</div>`).join('')}`;
      return `<tr class="perf" data-verdict="${esc(op.verdict)}"><td><code>${esc(op.id)}</code><div class="id">${esc(op.requests.baseline)} / ${esc(op.requests.current)} requests</div></td><td>${verdict}</td><td>${latencyCell(op.median)}</td><td>${latencyCell(op.p95)}</td><td>${rateCell(op.errorRate)}</td><td>${rateCell(op.rate429)}</td><td><div class="chart perf-chart"><canvas id="perf-${i}"></canvas></div></td></tr>`;
    })
    .join('\n');
  const html = `<section id="performance"><h2>Performance since the baseline capacity run: ${esc(c.verdict.toUpperCase())}</h2><p>${esc(c.baseline.samplesFile)} → ${esc(c.current.samplesFile)}. ${esc(thresholdWords(c.threshold))}; intervals at ${esc(c.confidence * 100)} % from ${esc(c.resamples)} block-bootstrap resamples (seed ${esc(c.seed)}), latency intervals widened by ${esc(c.resolutionMs)} ms of timing resolution. The gate fails only where a whole interval lies beyond the threshold.</p><table id="perf-table"><thead><tr><th>operation</th><th>verdict</th><th>median</th><th>p95</th><th>errors</th><th>429s</th><th>latency distributions (baseline, current)</th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
  const data = JSON.stringify(c.distributions).replace(/</g, '\\u003c');
  const script = `(function(){
  var d = ${data};
  d.forEach(function(o, i){
    new Chart(document.getElementById('perf-' + i), {type:'bar', data:{labels:o.binStartsMs.map(function(v){return v.toFixed(1)}), datasets:[
      {label:'baseline', data:o.baseline, backgroundColor:'rgba(37,99,235,0.45)', grouped:false},
      {label:'current', data:o.current, backgroundColor:'rgba(220,38,38,0.45)', grouped:false}]},
      options:{responsive:true, maintainAspectRatio:false, animation:false, plugins:{legend:{labels:{boxWidth:10,font:{size:10}}}}, scales:{x:{title:{display:true,text:'ms'}}, y:{title:{display:true,text:'requests'}}}}});
  });
  document.getElementById('performance').setAttribute('data-charts', 'rendered');
})();`;
  return { html, script };
}
