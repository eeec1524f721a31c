/** Run-to-run regression diff of two summaries: behaviour, not only schema. */
import type { Finding, LimitsManifestEntry, RunSummary } from '../catalogue';

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

export function diffRuns(
  before: RunSummary,
  after: RunSummary,
  limits?: { before?: LimitsManifestEntry[]; after?: LimitsManifestEntry[] },
): RunDiff {
  const bt = new Map(before.tests.map((t) => [t.title, t.status]));
  const at = new Map(after.tests.map((t) => [t.title, t.status]));
  const newlyFailing = [...at].filter(([t, s]) => s === 'failed' && bt.has(t) && bt.get(t) !== 'failed').map(([t]) => t);
  const newlyPassing = [...at].filter(([t, s]) => s === 'passed' && bt.get(t) === 'failed').map(([t]) => t);
  const limitsChanged: RunDiff['limitsChanged'] = [];
  const brows = new Map(before.operations.map((r) => [rowKey(r), r]));
  const headersAppeared: RunDiff['headersAppeared'] = [];
  const headersDisappeared: RunDiff['headersDisappeared'] = [];
  const fieldsAppeared: RunDiff['fieldsAppeared'] = [];
  const fieldsDisappeared: RunDiff['fieldsDisappeared'] = [];
  for (const r of after.operations) {
    const b = brows.get(rowKey(r));
    if (!b) continue;
    if ((b.advertisedLimit ?? null) !== (r.advertisedLimit ?? null))
      limitsChanged.push({
        id: r.id,
        environment: r.environment,
        before: b.advertisedLimit ?? null,
        after: r.advertisedLimit ?? null,
        source: 'advertised',
      });
    const set = (x?: string[]) => new Set(x ?? []);
    const [bh, ah, bf, af] = [set(b.headers), set(r.headers), set(b.fields), set(r.fields)];
    if (b.headers && r.headers) {
      for (const h of ah) if (!bh.has(h) && h !== 'date') headersAppeared.push({ row: rowKey(r), header: h });
      for (const h of bh) if (!ah.has(h) && h !== 'date') headersDisappeared.push({ row: rowKey(r), header: h });
    }
    if (b.fields && r.fields) {
      for (const f of af) if (!bf.has(f)) fieldsAppeared.push({ row: rowKey(r), field: f });
      for (const f of bf) if (!af.has(f)) fieldsDisappeared.push({ row: rowKey(r), field: f });
    }
  }
  const lb = new Map((limits?.before ?? []).map((e) => [`${e.id}|${e.environment}`, e]));
  const algorithmsChanged: RunDiff['algorithmsChanged'] = [];
  for (const e of limits?.after ?? []) {
    const b = lb.get(`${e.id}|${e.environment}`);
    if (b && b.observedLimit !== e.observedLimit)
      limitsChanged.push({ id: e.id, environment: e.environment, before: b.observedLimit, after: e.observedLimit, source: 'measured' });
    // Manifests of probe-reset carry the fingerprint: an algorithm seen in both runs that differs.
    const [ba, aa] = [(b as { algorithm?: string } | undefined)?.algorithm, (e as { algorithm?: string }).algorithm];
    if (ba !== undefined && aa !== undefined && ba !== aa)
      algorithmsChanged.push({ id: e.id, environment: e.environment, before: ba, after: aa });
  }
  const fmap = (fs: Finding[]) => new Map(fs.map((f) => [f.id, f.observed]));
  const bfm = fmap(before.findings);
  const afm = fmap(after.findings);
  const findingsChanged: RunDiff['findingsChanged'] = [];
  for (const id of new Set([...bfm.keys(), ...afm.keys()])) {
    const x = bfm.get(id) ?? null;
    const y = afm.get(id) ?? null;
    if (x !== y) findingsChanged.push({ id, before: x, after: y });
  }
  const diff: Omit<RunDiff, 'changed'> = {
    baseline: { startedAt: before.startedAt, target: before.target },
    current: { startedAt: after.startedAt, target: after.target },
    newlyFailing,
    newlyPassing,
    limitsChanged,
    findingsChanged,
    algorithmsChanged,
    headersAppeared,
    headersDisappeared,
    fieldsAppeared,
    fieldsDisappeared,
  };
  return { ...diff, changed: Object.values(diff).some((v) => Array.isArray(v) && v.length > 0) };
}
