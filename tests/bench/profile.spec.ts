import { test, expect } from '@playwright/test';
import { transform } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatSummary, sourceMapOf, summariseProfile, type CpuProfile } from '../../bench/profile';

const ROOT = '/project';
type Node = CpuProfile['nodes'][number];
const frame = (id: number, functionName: string, url = '', lineNumber = 0, columnNumber = 0): Node => ({
  id,
  callFrame: { functionName, url, lineNumber, columnNumber },
});

/** A profile of the given samples (node ids), one every `intervalUs` unless `deltas` says otherwise. */
function profileOf(nodes: Node[], samples: number[], deltas?: number[], intervalUs = 1000): CpuProfile {
  const timeDeltas = deltas ?? samples.map(() => intervalUs);
  return { nodes, samples, timeDeltas, startTime: 1_000_000, endTime: 1_000_000 + timeDeltas.reduce((a, b) => a + b, 0) };
}

test('should rank frames by their samples, leave idle time out and sum the time by kind of code', () => {
  const nodes = [
    frame(1, '(root)'),
    frame(2, '(idle)'),
    frame(3, 'writev'),
    frame(4, 'end', 'node:_http_outgoing', 1033),
    frame(5, 'Reply.header', 'file:///project/node_modules/fastify/lib/reply.js', 272),
    frame(6, 'consume', 'file:///project/mock/limits/limiter.ts', 51),
    frame(7, '(garbage collector)'),
    frame(8, 'routing', 'file:///project/node_modules/@scope/router/index.js', 9),
  ];
  const s = summariseProfile(profileOf(nodes, [2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 6, 7, 8]), { root: ROOT });
  expect(s.samples).toBe(10);
  expect(s.busyMs).toBeCloseTo(10);
  expect(s.top.map((f) => [f.frame, f.kind, f.selfPct])).toEqual([
    ['writev', 'native', 30],
    ['end node:_http_outgoing:1034', 'node', 20],
    ['consume mock/limits/limiter.ts:52', 'project', 20],
    ['Reply.header fastify/lib/reply.js:273', 'fastify', 10],
    ['(garbage collector)', 'gc', 10],
    ['routing @scope/router/index.js:10', '@scope/router', 10],
  ]);
  expect(s.byKind[0]).toEqual({ kind: 'native', selfMs: 3, selfPct: 30 });
  expect(s.byKind.map((k) => k.kind).sort()).toEqual(['@scope/router', 'fastify', 'gc', 'native', 'node', 'project']);
  expect(formatSummary('mock GET', s)).toMatch(/^mock GET: 0\.01 s busy in 10 samples; self time by kind: native 30\.0%/);
});

test('should count a sample after a long gap as one sample, and only the samples inside the span', () => {
  const nodes = [frame(1, '(root)'), frame(2, 'a', 'file:///project/a.ts'), frame(3, 'b', 'file:///project/b.ts')];
  // b's one sample comes after a 300 ms gap (the process descheduled): it is one sample, not 300 ms.
  const gap = summariseProfile(profileOf(nodes, [2, 2, 2, 3], [1000, 1000, 1000, 300_000]), { root: ROOT });
  expect(gap.top.map((f) => [f.frame, f.selfMs])).toEqual([
    ['a a.ts:1', 3],
    ['b b.ts:1', 1],
  ]);
  // Samples at 1.001, 1.002, ... 1.006 s: the span keeps the 3rd to the 5th.
  const spanned = summariseProfile(profileOf(nodes, [2, 2, 3, 3, 3, 2]), { root: ROOT, span: { fromUs: 1_003_000, toUs: 1_005_000 } });
  expect(spanned.samples).toBe(3);
  expect(spanned.top.map((f) => f.frame)).toEqual(['b b.ts:1']);
});

test("should name a bundle's frames by their source through its source map", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'profile-spec-'));
  try {
    const source = [
      '// a module',
      'export function outer(n: number): number {',
      '  return inner(n) + 1;',
      '}',
      'function inner(n: number) {',
      '  return n * 2;',
      '}',
    ];
    const bundled = await transform(source.join('\n'), { loader: 'ts', sourcemap: 'external', sourcefile: '../project/mock/hot.ts' });
    writeFileSync(join(dir, 'bundle.mjs.map'), bundled.map);
    const lines = bundled.code.split('\n');
    const at = (name: string) => lines.findIndex((l) => l.includes(`function ${name}(`));
    const url = pathToFileURL(join(dir, 'bundle.mjs')).href;
    const column = (name: string) => (lines[at(name)] as string).indexOf(`function ${name}`);
    const nodes = [
      frame(1, '(root)'),
      frame(2, 'outer', url, at('outer'), column('outer')),
      frame(3, 'inner', url, at('inner'), column('inner')),
    ];
    const maps = new Map([[url, sourceMapOf(join(dir, 'bundle.mjs.map'))]]);
    const s = summariseProfile(profileOf(nodes, [2, 3, 3]), { root: join(dir, '..', 'project'), sourceMaps: maps });
    expect(s.top.map((f) => [f.frame, f.kind])).toEqual([
      ['inner mock/hot.ts:5', 'project'],
      ['outer mock/hot.ts:2', 'project'],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
