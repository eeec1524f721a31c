/**
 * The run's ledger of facts x places (catalogue/facts.ts): each check declares the pairs it judges with its plan (an
 * annotation beside its planned requests), and the ledger gives every pair of the catalogue in the run's scope the
 * verdict of the checks that judge it: judged (passed or failed), not judged (why), out of scope (the setting that
 * brings it in) or not applicable. A pair no check of the run declares is out of scope when its environment or
 * family is not selected, else not judged: no check of this run judges it there. Pure functions of the run's tests.
 */
import {
  ENVIRONMENTS,
  factPlaces,
  familyOfPlace,
  pairKey,
  type EnvironmentName,
  type Family,
  type FactPlace,
  type Operation,
} from '../../catalogue';
import type { FactLedger, LedgerCell, PairStatus } from '../../reporting/report-shapes';
import type { CheckResult } from '../record/annotations';
import { readAnnotations } from '../record/annotation-reader';
import { unitsOf, type RunEntry } from '../record/check-units';
import { FACTS_ANNOTATION, type FactsDeclared } from '../record/fact-declarations';

/** Which verdict of two checks on one pair stands: a failure over a pass over the kinds of no verdict. */
const WEIGHT: Record<PairStatus, number> = { failed: 4, passed: 3, 'not-judged': 2, 'out-of-scope': 1, 'not-applicable': 0 };

const STATUS_OF: Record<CheckResult['status'], PairStatus> = {
  passed: 'passed',
  failed: 'failed',
  blocked: 'not-judged',
  skipped: 'not-judged',
  'out-of-scope': 'out-of-scope',
  'not-applicable': 'not-applicable',
};

/** The declared pairs of one test with the verdict of the check that declared them. */
function declaredOf(e: RunEntry): { pair: FactPlace; unit: CheckResult }[] {
  const a0 = readAnnotations(e);
  const units = unitsOf(e, a0);
  // A grouped check's pairs take its own verdict (none when the run's grep left it out); a test's, the test's.
  const unitOf = (check: string | undefined) => (a0.checkResults.length ? units.find((u) => u.title === check) : units[0]);
  const out: { pair: FactPlace; unit: CheckResult }[] = [];
  for (const a of e.annotations) {
    if (a.type !== FACTS_ANNOTATION || !a.description) continue;
    const d = JSON.parse(a.description) as FactsDeclared;
    const unit = unitOf(d.check);
    if (unit) for (const pair of d.pairs) out.push({ pair, unit });
  }
  return out;
}

/**
 * A failed check's verdict on one of its pairs (record/fact-verdicts.ts): failed when it found that fact broken,
 * passed when it judged the fact to the end, not judged when it stopped at another broken fact first; failed when
 * it names no broken fact (it says nothing of its facts, or failed outside their assertions).
 */
function failedCheckOn(pair: FactPlace, unit: CheckResult): PairStatus {
  const facts = unit.facts;
  if (!facts || facts.broken.includes(pair.fact)) return 'failed';
  if (facts.judged.includes(pair.fact)) return 'passed';
  return facts.broken.length ? 'not-judged' : 'failed';
}

/** A cell from a check's verdict. */
function cellOf(pair: FactPlace, family: Family | undefined, unit: CheckResult): LedgerCell {
  const status = unit.status === 'failed' ? failedCheckOn(pair, unit) : STATUS_OF[unit.status];
  if (status === 'not-judged' && unit.status === 'failed')
    return { ...pair, family, status, reason: `its check stopped at another broken fact: ${unit.title}` };
  const reason = status === 'passed' ? undefined : status === 'failed' ? unit.title : (unit.reason ?? 'no reason recorded');
  return { ...pair, family, status, ...(reason ? { reason } : {}), ...(unit.bringsIn ? { bringsIn: unit.bringsIn } : {}) };
}

/** A cell no check of the run declared. */
function undeclared(pair: FactPlace, family: Family | undefined, scope: LedgerScope): LedgerCell {
  if (!scope.environments.includes(pair.environment))
    return {
      ...pair,
      family,
      status: 'out-of-scope',
      reason: `ENVIRONMENTS excludes ${pair.environment}`,
      bringsIn: `ENVIRONMENTS including ${pair.environment}`,
    };
  if (family && !scope.families.includes(family))
    return { ...pair, family, status: 'out-of-scope', reason: `FAMILIES excludes ${family}`, bringsIn: `FAMILIES including ${family}` };
  return { ...pair, family, status: 'not-judged', reason: 'no check of this run judges it here' };
}

/** The run's selected environments and families. */
export interface LedgerScope {
  environments: readonly EnvironmentName[];
  families: readonly Family[];
}

/** The ledger of the run: every pair of the catalogue for `operations`, with its verdict. */
export function buildLedger(entries: readonly RunEntry[], operations: readonly Operation[], scope: LedgerScope): FactLedger {
  const cells = new Map<string, LedgerCell>();
  for (const pair of factPlaces(operations)) cells.set(pairKey(pair), undeclared(pair, familyOfPlace(pair.place, operations), scope));
  const declared = new Set<string>();
  for (const { pair, unit } of entries.flatMap(declaredOf)) {
    const key = pairKey(pair);
    const cell = cellOf(pair, familyOfPlace(pair.place, operations), unit);
    const prev = cells.get(key);
    if (!prev || !declared.has(key) || WEIGHT[cell.status] > WEIGHT[prev.status]) cells.set(key, cell);
    declared.add(key);
  }
  const all = [...cells.values()];
  const leftOut = new Map<string, FactLedger['leftOut'][number]>();
  for (const c of all) {
    if (c.status === 'passed' || c.status === 'failed') continue;
    const reason = c.bringsIn && c.status === 'out-of-scope' ? c.bringsIn : (c.reason ?? '');
    const key = `${c.status}|${reason}`;
    const l = leftOut.get(key) ?? { status: c.status, reason, places: 0 };
    l.places += 1;
    leftOut.set(key, l);
  }
  return {
    places: all.length,
    judged: all.filter((c) => c.status === 'passed' || c.status === 'failed').length,
    failed: all.filter((c) => c.status === 'failed').length,
    leftOut: [...leftOut.values()].sort((a, b) => b.places - a.places),
    cells: all,
  };
}

/** The ledger of a run from the summary reporter's options (its environments and families, comma-separated). */
export function runLedger(
  entries: readonly RunEntry[],
  operations: readonly Operation[],
  opts: { environments?: string | undefined; families?: string | undefined },
): FactLedger {
  const list = <T extends string>(v: string | undefined, all: readonly T[]): T[] =>
    v ? (v.split(',').filter((x) => (all as readonly string[]).includes(x)) as T[]) : [...all];
  return buildLedger(entries, operations, {
    environments: list(opts.environments, ENVIRONMENTS),
    families: list(opts.families, ['reseller', 'vendor'] as const),
  });
}
