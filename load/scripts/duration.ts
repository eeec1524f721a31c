/** k6's duration syntax (`500ms`, `30s`, `1m30s`, `2h`) in milliseconds. Pure: used by scripts and k6 bundles. */
export function durationMs(d: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let matched = '';
  for (let m = re.exec(d); m; m = re.exec(d)) {
    total += Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 's' ? 1000 : m[2] === 'm' ? 60000 : 3600000);
    matched += m[0];
  }
  if (matched !== d || !total) throw new Error(`invalid duration "${d}": expected k6 syntax such as 500ms, 90s, 1m30s, 30m`);
  return total;
}
