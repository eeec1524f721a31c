/**
 * Merges the limits manifests of a distributed probe (one per runner, each under
 * `<reports>/segment-<from>-<to>/`) into one, refusing overlaps: every operation must have been
 * probed by exactly one runner, or the quota was spent twice and the limits read are wrong.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Manifest {
  operations: { id: string; environment: string }[];
  /** Operations a runner left out, with the reason (absent: none). */
  notRun?: { id: string; reason: string }[];
  durationMs: number;
  requests: number;
}
interface Timeline {
  windowMs: number;
  operations: { id: string; environment: string }[];
}

export interface MergeResult {
  manifest: Manifest & { runners: number };
  timeline?: Timeline;
  sources: string[];
}

/** The runner folders (segment-*) under a reports directory. */
export function segmentDirs(reportsDir: string): string[] {
  if (!existsSync(reportsDir)) return [];
  return readdirSync(reportsDir)
    .filter((d) => d.startsWith('segment-') && statSync(join(reportsDir, d)).isDirectory())
    .sort()
    .map((d) => join(reportsDir, d));
}

export function mergeManifests(inputs: readonly string[]): MergeResult {
  const dirs = inputs.map((i) => (i.endsWith('.json') ? join(i, '..') : i));
  if (!dirs.length) throw new Error('nothing to merge: expected runner folders (segment-*) holding limits.json');
  const manifests = dirs.map((d) => {
    const f = join(d, 'limits.json');
    if (!existsSync(f)) throw new Error(`${f} does not exist: each runner folder must hold the limits.json its probe wrote`);
    return JSON.parse(readFileSync(f, 'utf8')) as Manifest;
  });
  const seen = new Map<string, string>();
  const overlaps: string[] = [];
  manifests.forEach((m, i) => {
    for (const e of m.operations) {
      const key = `${e.id} (${e.environment})`;
      const before = seen.get(key);
      if (before) overlaps.push(`${key} in ${before} and ${dirs[i]}`);
      else seen.set(key, dirs[i] as string);
    }
  });
  if (overlaps.length)
    throw new Error(
      `operations probed by more than one runner (their quota was spent twice; give each runner its own execution segment):\n  ${overlaps.join('\n  ')}`,
    );
  const timelines = dirs.map((d) => join(d, 'probe-timeline.json')).filter((f) => existsSync(f));
  const parsed = timelines.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Timeline);
  return {
    sources: dirs,
    manifest: {
      ...manifests[0],
      operations: manifests.flatMap((m) => m.operations),
      ...notRunOfAll(manifests),
      durationMs: Math.max(...manifests.map((m) => m.durationMs)),
      requests: manifests.reduce((a, m) => a + m.requests, 0),
      runners: manifests.length,
    },
    ...(parsed.length ? { timeline: { ...parsed[0], operations: parsed.flatMap((t) => t.operations) } as Timeline } : {}),
  };
}

/** Every runner's operations left out, except those another runner probed: no runner's reason is lost. */
function notRunOfAll(manifests: readonly Manifest[]): Pick<Manifest, 'notRun'> {
  const probed = new Set(manifests.flatMap((m) => m.operations.map((o) => o.id)));
  const notRun = manifests.flatMap((m) => m.notRun ?? []).filter((n) => !probed.has(n.id));
  return notRun.length ? { notRun } : {};
}

/** Writes limits.json (and probe-timeline.json) of the merged run into reportsDir. */
export function writeMerged(r: MergeResult, reportsDir: string): string {
  const file = join(reportsDir, 'limits.json');
  writeFileSync(file, JSON.stringify(r.manifest, null, 2));
  if (r.timeline) writeFileSync(join(reportsDir, 'probe-timeline.json'), JSON.stringify(r.timeline, null, 2));
  return file;
}
