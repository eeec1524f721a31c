/**
 * The ledger of facts x places in words, for every reader of a run: the one-line total the terminal, the page and
 * the step summary print, and the step summary's list of the pairs that need a look (failed or not judged).
 */
import type { FactLedger, LedgerCell, PairStatus } from './report-shapes';
import { markdownTable } from './github-markdown';

/** A pair's status as the readers write it. */
export const PAIR_STATUS_LABEL: Record<PairStatus, string> = {
  passed: 'passed',
  failed: 'failed',
  'not-judged': 'not judged',
  'out-of-scope': 'out of scope',
  'not-applicable': 'not applicable',
};

/** The summary's line: "Facts judged at 1204 of 1310 places; 106 out of scope: PROBE_LIMITS=1 96, …". */
export function ledgerLine(l: FactLedger): string {
  const parts = [`Facts judged at ${l.judged} of ${l.places} places${l.failed ? ` (${l.failed} failed)` : ''}`];
  for (const status of ['out-of-scope', 'not-judged', 'not-applicable'] as const) {
    const of = l.leftOut.filter((x) => x.status === status);
    const n = of.reduce((s, x) => s + x.places, 0);
    if (n) parts.push(`${n} ${PAIR_STATUS_LABEL[status]}: ${of.map((x) => `${x.reason} ${x.places}`).join(', ')}`);
  }
  return parts.join('; ');
}

/** Rows of the step summary's list at most: past them, the page and summary.json hold the rest. */
const MARKDOWN_ROWS = 50;

/** The pairs that need a look, one row per fact, place, status and reason with its environments, failures first. */
function lookRows(cells: readonly LedgerCell[]): string[][] {
  const rows = new Map<string, { c: LedgerCell; environments: string[] }>();
  for (const c of cells) {
    if (c.status !== 'failed' && c.status !== 'not-judged') continue;
    const key = `${c.status}|${c.fact}|${c.place}|${c.reason ?? ''}`;
    const row = rows.get(key) ?? { c, environments: [] };
    row.environments.push(c.environment);
    rows.set(key, row);
  }
  return [...rows.values()]
    .sort((a, b) => Number(b.c.status === 'failed') - Number(a.c.status === 'failed'))
    .map(({ c, environments }) => [PAIR_STATUS_LABEL[c.status], c.fact, c.place, environments.join(', '), c.reason ?? '']);
}

/** The step summary's part of the ledger: its line, and the failed and not-judged pairs (not the whole matrix). */
export function factLedgerMarkdown(l: FactLedger): string[] {
  const rows = lookRows(l.cells);
  const more = rows.length - MARKDOWN_ROWS;
  return [
    '## Facts × places',
    '',
    ledgerLine(l),
    ...(rows.length
      ? [
          '',
          ...markdownTable(['status', 'fact', 'place', 'environments', 'reason'], rows.slice(0, MARKDOWN_ROWS)),
          ...(more > 0 ? ['', `… ${more} more in summary.json (\`facts\`) and on the report page.`] : []),
        ]
      : []),
    '',
  ];
}
