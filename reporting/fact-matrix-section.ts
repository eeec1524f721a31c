/**
 * The report page's ledger of facts x places as a matrix: a row per place (an operation or a family's token
 * endpoint, grouped by family), a column per fact of the catalogue, and in each cell a mark per environment with
 * the pair's verdict; its title says the environment, the reason and the setting that brings the pair in. A fact
 * that does not apply at a place leaves its cell empty.
 */
import { ENVIRONMENTS, FACTS } from '../catalogue';
import { ledgerLine, PAIR_STATUS_LABEL } from './fact-ledger-lines';
import type { FactLedger, LedgerCell, PairStatus } from './report-shapes';
import { esc } from './report-tables';

/** The mark of a verdict: a sign that reads without colour (the colour repeats it). */
const MARK: Record<PairStatus, string> = {
  passed: '✓',
  failed: '✗',
  'not-judged': '?',
  'out-of-scope': '–',
  'not-applicable': '∅',
};

/** What a mark stands for, spelled out in its title (and for screen readers). */
function markTitle(c: LedgerCell): string {
  const why = c.reason ? `: ${c.reason}` : '';
  const brings = c.bringsIn ? `; brought in by ${c.bringsIn}` : '';
  return `${c.environment}: ${PAIR_STATUS_LABEL[c.status]}${why}${brings}`;
}

/** A mark: its sign, its title in full, and its environment and verdict in words for screen readers. */
const mark = (c: LedgerCell): string =>
  `<span class="fm ${c.status}" data-env="${esc(c.environment)}" title="${esc(markTitle(c))}"><span aria-hidden="true">${MARK[c.status]}</span><span class="sr">${esc(`${c.environment} ${PAIR_STATUS_LABEL[c.status]}`)}</span></span>`;

/** The cells of the ledger by place and fact, each list in the catalogue's order of environments. */
function cellsByPlace(cells: readonly LedgerCell[]): Map<string, Map<string, LedgerCell[]>> {
  const byPlace = new Map<string, Map<string, LedgerCell[]>>();
  const order = (c: LedgerCell) => ENVIRONMENTS.indexOf(c.environment);
  for (const c of [...cells].sort((a, b) => order(a) - order(b))) {
    const facts = byPlace.get(c.place) ?? new Map<string, LedgerCell[]>();
    facts.set(c.fact, [...(facts.get(c.fact) ?? []), c]);
    byPlace.set(c.place, facts);
  }
  return byPlace;
}

/** The places of each family, in the ledger's order (the catalogue's operations, then the token endpoint). */
function placesByFamily(cells: readonly LedgerCell[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of cells) {
    const family = c.family ?? 'other';
    const places = out.get(family) ?? [];
    if (!places.includes(c.place)) places.push(c.place);
    out.set(family, places);
  }
  return out;
}

/** The facts the ledger holds, in the catalogue's order, with their statements. */
const factsOf = (cells: readonly LedgerCell[]) => FACTS.filter((f) => cells.some((c) => c.fact === f.id));

/** The legend of the marks. */
const legend = (): string =>
  `<p class="legend">${(Object.keys(MARK) as PairStatus[])
    .map((s) => `<span class="fm ${s}" aria-hidden="true">${MARK[s]}</span> ${esc(PAIR_STATUS_LABEL[s])}`)
    .join(' · ')}; one mark per environment (${esc(ENVIRONMENTS.join(', '))}); hover a mark for the reason and what brings it in.</p>`;

/** The matrix's rows: a heading row per family, then a row per place. */
function matrixRows(l: FactLedger, facts: ReturnType<typeof factsOf>): string {
  const byPlace = cellsByPlace(l.cells);
  return [...placesByFamily(l.cells)]
    .map(
      ([family, places]) =>
        `<tbody><tr><th scope="rowgroup" colspan="${facts.length + 1}" class="family">${esc(family)}</th></tr>${places
          .map(
            (place) =>
              `<tr data-place="${esc(place)}"><th scope="row"><code>${esc(place)}</code></th>${facts
                .map((f) => {
                  const cs = byPlace.get(place)?.get(f.id) ?? [];
                  return `<td class="m" data-fact="${esc(f.id)}">${cs.map(mark).join('')}</td>`;
                })
                .join('')}</tr>`,
          )
          .join('')}</tbody>`,
    )
    .join('\n');
}

/** The section "Facts × places"; empty for a summary without a ledger (written before it existed, or by another command). */
export function factMatrixSection(l: FactLedger | undefined): string {
  if (!l?.cells.length) return '';
  const facts = factsOf(l.cells);
  const head = facts.map((f) => `<th scope="col" class="fact" title="${esc(f.statement)}">${esc(f.id)}</th>`).join('');
  return `<section id="facts"><h2>Facts × places</h2><p id="facts-line">${esc(ledgerLine(l))}</p>${legend()}<div class="matrix"><table id="facts-matrix"><caption class="sr">Each documented fact at each place, with its verdict per environment</caption><thead><tr><th scope="col">place</th>${head}</tr></thead>
${matrixRows(l, facts)}
</table></div></section>`;
}
