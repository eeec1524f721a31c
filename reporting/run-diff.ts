/** Run-to-run regression diff of two summaries: behaviour, not only schema. */
import type { Finding, LimitsManifestEntry, OperationResult, RunSummary } from './report-shapes';

export interface RunDiff {
  baseline: { startedAt: string; target: string };
  current: { startedAt: string; target: string };
  newlyFailing: string[];
  newlyPassing: string[];
  limitsChanged: { id: string; environment: string; before: number | null; after: number | null; source: 'advertised' | 'measured' }[];
  findingsChanged: { id: string; before: string | null; after: string | null }[];
  /** The probe identified another rate-limit algorithm than in the baseline: a regression. */
  algorithmsChanged: { id: string; environment: string; before: string; after: string }[];
  headersAppeared: { row: string; header: string }[];
  headersDisappeared: { row: string; header: string }[];
  fieldsAppeared: { row: string; field: string }[];
  fieldsDisappeared: { row: string; field: string }[];
  changed: boolean;
}

const rowKey = (r: { id: string; environment: string }) => `${r.id} (${r.environment})`;

type RowChanges = Pick<RunDiff, 'headersAppeared' | 'headersDisappeared' | 'fieldsAppeared' | 'fieldsDisappeared'> & {
  limitsChanged: RunDiff['limitsChanged'];
};

export function diffRuns(
  before: RunSummary,
  after: RunSummary,
  limits?: { before?: LimitsManifestEntry[]; after?: LimitsManifestEntry[] },
): RunDiff {
  const bt = new Map(before.tests.map((t) => [t.title, t.status]));
  const at = new Map(after.tests.map((t) => [t.title, t.status]));
  const newlyFailing = [...at].filter(([t, s]) => s === 'failed' && bt.has(t) && bt.get(t) !== 'failed').map(([t]) => t);
  const newlyPassing = [...at].filter(([t, s]) => s === 'passed' && bt.get(t) === 'failed').map(([t]) => t);
  const rows = rowChanges(before, after);
  const measured = measuredChanges(limits?.before ?? [], limits?.after ?? []);
  const diff: Omit<RunDiff, 'changed'> = {
    baseline: { startedAt: before.startedAt, target: before.target },
    current: { startedAt: after.startedAt, target: after.target },
    newlyFailing,
    newlyPassing,
    limitsChanged: [...rows.limitsChanged, ...measured.limitsChanged],
    findingsChanged: findingsChanged(before.findings, after.findings),
    algorithmsChanged: measured.algorithmsChanged,
    headersAppeared: rows.headersAppeared,
    headersDisappeared: rows.headersDisappeared,
    fieldsAppeared: rows.fieldsAppeared,
    fieldsDisappeared: rows.fieldsDisappeared,
  };
  return { ...diff, changed: Object.values(diff).some((v) => Array.isArray(v) && v.length > 0) };
}

/** Per operation row in both runs: the advertised limit, and the headers (`date` aside) and fields that appeared or disappeared. */
function rowChanges(before: RunSummary, after: RunSummary): RowChanges {
  const out: RowChanges = { limitsChanged: [], headersAppeared: [], headersDisappeared: [], fieldsAppeared: [], fieldsDisappeared: [] };
  const brows = new Map(before.operations.map((r) => [rowKey(r), r]));
  for (const r of after.operations) {
    const b = brows.get(rowKey(r));
    if (!b) continue;
    if ((b.advertisedLimit ?? null) !== (r.advertisedLimit ?? null))
      out.limitsChanged.push({
        id: r.id,
        environment: r.environment,
        before: b.advertisedLimit ?? null,
        after: r.advertisedLimit ?? null,
        source: 'advertised',
      });
    nameChanges(b, r, out);
  }
  return out;
}

/** The headers (`date` aside) and body fields of a row that appeared or disappeared, when both runs recorded them. */
function nameChanges(b: OperationResult, r: OperationResult, out: RowChanges): void {
  const set = (x?: string[]) => new Set(x ?? []);
  const [bh, ah, bf, af] = [set(b.headers), set(r.headers), set(b.fields), set(r.fields)];
  if (b.headers && r.headers) {
    for (const h of ah) if (!bh.has(h) && h !== 'date') out.headersAppeared.push({ row: rowKey(r), header: h });
    for (const h of bh) if (!ah.has(h) && h !== 'date') out.headersDisappeared.push({ row: rowKey(r), header: h });
  }
  if (b.fields && r.fields) {
    for (const f of af) if (!bf.has(f)) out.fieldsAppeared.push({ row: rowKey(r), field: f });
    for (const f of bf) if (!af.has(f)) out.fieldsDisappeared.push({ row: rowKey(r), field: f });
  }
}

/** Per probed operation in both load manifests: the measured limit, and the rate-limit algorithm. */
function measuredChanges(
  before: readonly LimitsManifestEntry[],
  after: readonly LimitsManifestEntry[],
): Pick<RunDiff, 'limitsChanged' | 'algorithmsChanged'> {
  const lb = new Map(before.map((e) => [`${e.id}|${e.environment}`, e]));
  const limitsChanged: RunDiff['limitsChanged'] = [];
  const algorithmsChanged: RunDiff['algorithmsChanged'] = [];
  for (const e of after) {
    const b = lb.get(`${e.id}|${e.environment}`);
    if (b && b.observedLimit !== e.observedLimit)
      limitsChanged.push({ id: e.id, environment: e.environment, before: b.observedLimit, after: e.observedLimit, source: 'measured' });
    // Manifests of probe-reset carry the fingerprint: an algorithm seen in both runs that differs.
    const [ba, aa] = [(b as { algorithm?: string } | undefined)?.algorithm, (e as { algorithm?: string }).algorithm];
    if (ba !== undefined && aa !== undefined && ba !== aa)
      algorithmsChanged.push({ id: e.id, environment: e.environment, before: ba, after: aa });
  }
  return { limitsChanged, algorithmsChanged };
}

/** Findings whose observation differs, or that one run lacks (null). */
function findingsChanged(before: readonly Finding[], after: readonly Finding[]): RunDiff['findingsChanged'] {
  const fmap = (fs: readonly Finding[]) => new Map(fs.map((f) => [f.id, f.observed]));
  const bfm = fmap(before);
  const afm = fmap(after);
  const out: RunDiff['findingsChanged'] = [];
  for (const id of new Set([...bfm.keys(), ...afm.keys()])) {
    const x = bfm.get(id) ?? null;
    const y = afm.get(id) ?? null;
    if (x !== y) out.push({ id, before: x, after: y });
  }
  return out;
}
