/**
 * Where a server's CPU goes: a V8 CPU profile (`node --cpu-prof`) summarised as its top frames by
 * self time and its time by kind of code (the garbage collector, Node's internals, each package, the
 * project's own modules). Frames of a bundle are named by their source through the bundle's source map.
 */
import { SourceMap } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from '../common/statistics';

/** The parts of a `.cpuprofile` read here (Chrome DevTools protocol `Profiler.Profile`). */
export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

interface CallFrame {
  functionName: string;
  url: string;
  /** 0-based. */
  lineNumber: number;
  /** 0-based. */
  columnNumber: number;
}

export interface Frame {
  /** Function name and where it is defined (source path:line, relative to the project). */
  frame: string;
  /** Kind of code: `gc`, `program`, `node`, `native`, a package name or `project`. */
  kind: string;
  selfMs: number;
  /** Share of the busy time (idle samples excluded). */
  selfPct: number;
}

export interface ProfileSummary {
  /** Sampled time without the idle samples, ms. */
  busyMs: number;
  /** Samples without the idle ones. */
  samples: number;
  top: Frame[];
  /** Self time by kind of code, largest first. */
  byKind: { kind: string; selfMs: number; selfPct: number }[];
}

export interface SummaryOptions {
  /** Frames listed. Default 15. */
  top?: number;
  /** The project's root: paths are given relative to it. */
  root: string;
  /** Source maps of bundles by their file URL (the bundle's own frames are named by their source). */
  sourceMaps?: ReadonlyMap<string, SourceMap>;
  /**
   * Only the samples taken in this span, in the profile's clock (monotonic µs: `process.hrtime` of another
   * process on the same machine): the load, without the start-up and the warm-up.
   */
  span?: { fromUs: number; toUs: number };
}

const SPECIAL: Readonly<Record<string, string>> = {
  '(garbage collector)': 'gc',
  '(program)': 'program',
  '(root)': 'program',
};

function packageOf(path: string): string | undefined {
  const at = path.lastIndexOf('node_modules/');
  if (at === -1) return undefined;
  const [scope, name] = path.slice(at + 'node_modules/'.length).split('/');
  return scope?.startsWith('@') ? `${scope}/${name}` : scope;
}

/** A frame's name and kind, its location mapped to the source when a source map knows it. */
function describe(f: CallFrame, o: SummaryOptions): { frame: string; kind: string } {
  const name = f.functionName || '(anonymous)';
  const special = SPECIAL[f.functionName];
  if (special) return { frame: name, kind: special };
  if (!f.url) return { frame: name, kind: 'native' };
  if (f.url.startsWith('node:')) return { frame: `${name} ${f.url}:${f.lineNumber + 1}`, kind: 'node' };
  let path = f.url.startsWith('file:') ? fileURLToPath(f.url) : f.url;
  let line = f.lineNumber + 1;
  const map = o.sourceMaps?.get(f.url);
  const entry = map?.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  if (entry?.originalSource) {
    path = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : entry.originalSource;
    line = (entry.originalLine ?? 0) + 1;
  }
  const pkg = packageOf(path);
  const shown = pkg ? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length) : relative(o.root, path);
  return { frame: `${name} ${shown}:${line}`, kind: pkg ?? 'project' };
}

/**
 * Samples per node id (in the span, when one is given) and the profile's median sampling interval. Time
 * is samples at that interval, not each sample's own delta: on a busy machine the process is sometimes
 * descheduled for tens of milliseconds, and the sample after such a gap would carry all of it, whatever
 * frame it caught.
 */
function sampleCounts(p: CpuProfile, span: SummaryOptions['span']): { counts: Map<number, number>; intervalMs: number } {
  const counts = new Map<number, number>();
  const samples = p.samples ?? [];
  let atUs = p.startTime;
  samples.forEach((id, i) => {
    atUs += p.timeDeltas?.[i] ?? 0;
    if (!span || (atUs >= span.fromUs && atUs <= span.toUs)) counts.set(id, (counts.get(id) ?? 0) + 1);
  });
  if (!samples.length) for (const n of p.nodes) counts.set(n.id, n.hitCount ?? 0);
  const all = samples.length || p.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0) || 1;
  const intervalUs = median(p.timeDeltas ?? []) ?? (p.endTime - p.startTime) / all;
  return { counts, intervalMs: intervalUs / 1000 };
}

export function summariseProfile(p: CpuProfile, o: SummaryOptions): ProfileSummary {
  const { counts, intervalMs } = sampleCounts(p, o.span);
  const frames = new Map<string, { kind: string; samples: number }>();
  for (const n of p.nodes) {
    const c = counts.get(n.id) ?? 0;
    if (!c || n.callFrame.functionName === '(idle)') continue;
    const { frame, kind } = describe(n.callFrame, o);
    const f = frames.get(frame) ?? { kind, samples: 0 };
    f.samples += c;
    frames.set(frame, f);
  }
  const busy = [...frames.values()].reduce((a, f) => a + f.samples, 0);
  const pct = (c: number) => (busy ? (100 * c) / busy : 0);
  const kinds = new Map<string, number>();
  for (const f of frames.values()) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + f.samples);
  return {
    busyMs: busy * intervalMs,
    samples: busy,
    top: [...frames]
      .sort((a, b) => b[1].samples - a[1].samples)
      .slice(0, o.top ?? 15)
      .map(([frame, f]) => ({ frame, kind: f.kind, selfMs: f.samples * intervalMs, selfPct: pct(f.samples) })),
    byKind: [...kinds].sort((a, b) => b[1] - a[1]).map(([kind, c]) => ({ kind, selfMs: c * intervalMs, selfPct: pct(c) })),
  };
}

/** A bundle's source map file (esbuild's `sourcemap: 'external'`), its sources resolved to file URLs. */
export function sourceMapOf(mapFile: string): SourceMap {
  const payload = JSON.parse(readFileSync(mapFile, 'utf8')) as ConstructorParameters<typeof SourceMap>[0];
  const root = resolve(dirname(mapFile), payload.sourceRoot ?? '');
  return new SourceMap({ ...payload, sourceRoot: '', sources: payload.sources.map((s) => pathToFileURL(resolve(root, s)).href) });
}

/** The summary as lines of text: kinds first, then the top frames. */
export function formatSummary(title: string, s: ProfileSummary): string {
  const kinds = s.byKind
    .slice(0, 8)
    .map((k) => `${k.kind} ${k.selfPct.toFixed(1)}%`)
    .join(', ');
  const rows = s.top.map((f) => `  ${f.selfPct.toFixed(1).padStart(5)}%  ${f.selfMs.toFixed(0).padStart(6)} ms  ${f.frame}`);
  return [`${title}: ${(s.busyMs / 1000).toFixed(2)} s busy in ${s.samples} samples; self time by kind: ${kinds}`, ...rows].join('\n');
}
