import { test, expect } from '@playwright/test';
import { run } from '../load/run';
import { cliArgs } from '../cli-bundles';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GOALS } from '../../bench/bench-options';
import type { Spread } from '../../bench/spread';
import { startServer } from '../../bench/proc';

test('should run the smallest benchmark, print every figure and write bench.json with median and range (figures are not gated)', async () => {
  test.setTimeout(300_000);
  const out = test.info().outputPath();
  // In the background: its load would otherwise take the CPU from the timing-sensitive tests beside it.
  const r = await run(process.execPath, [...cliArgs('bench'), '--smoke', '--json', '--out', out], {}, 280_000, true);
  expect(r.code, r.stderr.slice(-2000)).toBe(0);
  for (const row of [
    'ceiling (headline)',
    "bare node:http GET, the mock's request",
    'mock GET catalog.details',
    'throughput ratio mock/bare',
    'CPU per request',
    'GET, bare given no headers',
    'minimal Fastify GET / bare',
    "bare node:http POST, the mock's request",
    'mock POST priceAndAvailability',
    'POST throughput ratio mock/bare',
    'POST CPU per request',
    'POST, bare given no headers',
    'certify wall time',
    'probe all operations',
    'bundle all load scripts',
    'import a 1 MB OpenAPI document',
  ]) {
    expect(r.stdout).toContain(row);
  }
  expect(r.stdout).toMatch(/throughput ratio mock\/bare\s+\d+\.\d\d \(\d+\.\d\d–\d+\.\d\d, 2 rounds\)/);
  type Ratios = { throughputRatio: Spread; cpuPerRequestRatio: Spread };
  const b = JSON.parse(readFileSync(join(out, 'bench.json'), 'utf8')) as Record<string, Spread> & {
    ceilings: Record<string, string>;
    goals: typeof GOALS & { met: Record<string, boolean> };
    post: Ratios & { headerless: Ratios };
    headerless: Ratios;
    fastifyFloor: Ratios & { headerless: Ratios };
  };
  // Both ceilings, named; the goals against the headline one, with whether the medians meet them.
  expect(Object.keys(b.ceilings).sort()).toEqual(['headerless', 'headline']);
  expect(b.goals).toMatchObject(GOALS);
  expect(b.goals.met.getThroughput).toBe((b.throughputRatio as Spread).median >= GOALS.get.minThroughputRatio);
  expect(r.stdout).toMatch(/POST throughput ratio mock\/bare\s+\d+\.\d\d \(\d+\.\d\d–\d+\.\d\d, 2 rounds\) \(goal >= 0\.6\)/);
  // The goals' ratios against the headline ceiling, and those against the header-less one (Fastify's floor too).
  for (const ratio of [b, b.post, b.headerless, b.post.headerless, b.fastifyFloor, b.fastifyFloor.headerless].flatMap((r) => [
    r.throughputRatio,
    r.cpuPerRequestRatio,
  ])) {
    expect(ratio?.values).toHaveLength(2);
    const { median, min, max } = ratio as Spread;
    expect(min).toBeGreaterThan(0);
    expect(min).toBeLessThanOrEqual(median);
    expect(median).toBeLessThanOrEqual(max);
  }
  test.info().annotations.push({
    type: 'bench',
    description: `throughput ratio ${b.throughputRatio?.median.toFixed(2)}, CPU ratio ${b.cpuPerRequestRatio?.median.toFixed(2)} (smoke)`,
  });
});

test('should write a CPU profile of the mock and of the bare server under GET and POST load, with their top frames', async () => {
  test.setTimeout(120_000);
  const out = test.info().outputPath();
  const r = await run(process.execPath, [...cliArgs('bench'), '--smoke', '--profile', '--out', out], {}, 100_000, true);
  expect(r.code, r.stderr.slice(-2000)).toBe(0);
  const summary = JSON.parse(readFileSync(join(out, 'profile', 'profile.json'), 'utf8')) as Record<
    string,
    { requests: number; samples: number; top: { frame: string }[]; file: string }
  >;
  expect(Object.keys(summary).sort()).toEqual(['bare GET', 'bare POST', 'mock GET', 'mock POST']);
  for (const [name, s] of Object.entries(summary)) {
    expect(r.stdout).toContain(`${name} under load`);
    expect(s.requests, name).toBe(500);
    // The written profile is Node's own (--cpu-prof): a tree of call frames with samples.
    const profile = JSON.parse(readFileSync(s.file, 'utf8')) as { nodes: unknown[]; samples: unknown[] };
    expect(profile.nodes.length, name).toBeGreaterThan(10);
    expect(profile.samples.length, name).toBeGreaterThan(0);
  }
});

test('should stop a measured server twice without waiting for an exit that already came', async () => {
  const s = await startServer(['bench/bare-server.mjs', '10']);
  await s.stop();
  // The bench stops its servers after the loads and again in its cleanup: a second stop that waited for
  // the exit event again let the process end with its temporary folder never removed.
  const again = await Promise.race([
    s.stop().then(() => 'stopped'),
    new Promise((r) => setTimeout(() => r('still waiting after 5 s'), 5000)),
  ]);
  expect(again).toBe('stopped');
});
