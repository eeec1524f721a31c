/** What the report page inlines: its style sheet, its plot script and chart.js. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The page's style sheet. */
export const STYLE = `body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#14213d;color:#fff;padding:18px 28px;display:flex;justify-content:space-between;align-items:center;flex-wrap:wrap;gap:12px}
header h1{font-size:20px;margin:0}header .meta{opacity:.85;font-size:13px}
.verdict{font-size:18px;font-weight:700;padding:6px 16px;border-radius:6px}.verdict.passed{background:#1f8a4c}.verdict.failed{background:#c0392b}
main{padding:20px 28px;max-width:1500px}section{background:#fff;border:1px solid #e1e4e8;border-radius:8px;padding:14px 18px;margin-bottom:18px}
h2{font-size:16px;margin:0 0 10px}table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #eef0f3;padding:5px 7px;text-align:left;vertical-align:top}
th{font-size:12px;text-transform:uppercase;letter-spacing:.03em;color:#57606a;background:#fafbfc;position:sticky;top:0}td.n{text-align:right;font-variant-numeric:tabular-nums}
.id{color:#6e7781;font-size:11px}.b{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600}
.b.passed{background:#dcf5e6;color:#155d33}.b.failed{background:#fbe0dd;color:#8e1f13}.b.blocked{background:#fff1c9;color:#7a5a00}.b.skipped,.b.none{background:#eceef1;color:#57606a}
.totals{display:flex;gap:14px;flex-wrap:wrap}.totals div{background:#fafbfc;border:1px solid #e1e4e8;border-radius:6px;padding:8px 14px}.totals b{font-size:20px;display:block}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:16px}.chart{height:280px}pre{white-space:pre-wrap;font-size:12px;background:#f6f8fa;padding:8px;border-radius:6px}
.note{color:#7a5a00}.bad{color:#8e1f13}.good{color:#155d33}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.matrix{overflow-x:auto}#facts-matrix{width:auto}#facts-matrix th,#facts-matrix td{padding:2px 5px}
#facts-matrix th.fact{writing-mode:vertical-rl;transform:rotate(180deg);text-transform:none;letter-spacing:0;font-weight:500;white-space:nowrap;vertical-align:bottom}
#facts-matrix th.family{text-transform:uppercase;background:#eef1f5}#facts-matrix th[scope=row]{font-weight:400;white-space:nowrap;position:static;text-transform:none;letter-spacing:0;color:inherit;background:none}
#facts-matrix td.m{white-space:nowrap;text-align:center;border-left:1px solid #eef0f3}
.fm{display:inline-block;width:1.15em;text-align:center;border-radius:3px;font-size:12px;line-height:1.4;cursor:help}
.fm.passed{color:#155d33}.fm.failed{background:#fbe0dd;color:#8e1f13;font-weight:700}.fm.not-judged{background:#fff1c9;color:#7a5a00;font-weight:700}
.fm.out-of-scope,.fm.not-applicable{color:#8c959f}.legend{font-size:12px;color:#57606a}
`;

/** Draws the plots from the JSON in #chart-data (chart.js loaded before it). */
export const CHARTS_SCRIPT = `(function(){
  var d = JSON.parse(document.getElementById('chart-data').textContent);
  Chart.defaults.animation = false;
  var palette = ['#2563eb','#dc2626','#16a34a','#9333ea','#ea580c','#0891b2','#65a30d','#db2777','#4b5563','#ca8a04'];
  var opts = {responsive:true, maintainAspectRatio:false, plugins:{legend:{display:true, labels:{boxWidth:10,font:{size:10}}}}};
  new Chart(document.getElementById('remaining'), {type:'line', data:{datasets:d.timeline.slice(0,12).map(function(o,i){return {label:o.id, data:o.points.filter(function(p){return p.y!==null}), borderColor:palette[i%10], pointRadius:1, showLine:true, stepped:true};})}, options:Object.assign({}, opts, {parsing:true, scales:{x:{type:'linear', title:{display:true,text:'ms since the first probe request'}}, y:{title:{display:true,text:'X-RateLimit-Remaining'}}}})});
  new Chart(document.getElementById('reset'), {type:'bar', data:{labels:d.reset.map(function(r){return r.id}), datasets:[{label:'advertised reset', data:d.reset.map(function(r){return r.advertised}), backgroundColor:'#93c5fd'},{label:'observed refill', data:d.reset.map(function(r){return r.observed}), backgroundColor:'#1d4ed8'}]}, options:opts});
  var lat = d.latencies, max = Math.max.apply(null, lat.concat([1])), bins = 20, w = max / bins, counts = new Array(bins).fill(0);
  lat.forEach(function(v){counts[Math.min(bins-1, Math.floor(v / w))]++;});
  new Chart(document.getElementById('latency'), {type:'bar', data:{labels:counts.map(function(_,i){return (i*w).toFixed(1)}), datasets:[{label:'valid calls', data:counts, backgroundColor:'#0f766e'}]}, options:opts});
  document.body.setAttribute('data-charts', 'rendered');
})();
`;

/** chart.js's UMD build, to inline. */
export function chartJsSource(): string {
  const require = createRequire(import.meta.url);
  // The package's exports hide the UMD build: locate it next to the main entry (dist/).
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}
