import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport } from '../../reporting/build-report';
import type { HarLog } from '../../reporting/har-shapes';
import { sampleExchange, sampleFailedCheck, sampleSummary } from './sample';

const failed = sampleFailedCheck(
  'Broken fact: a page holds at most pageSize entries',
  `read -r ACCESS_TOKEN < <(curl -sS -X POST 'http://127.0.0.1:9/oauth/oauth20/token' --data-urlencode "client_secret=$RESELLER_CLIENT_SECRET")`,
);

const entry = sampleExchange(failed);

test('should show each failed check with its reproduction, a copy button and its exchanges from exchanges.har', async () => {
  const dir = mkdtempSync(test.info().outputPath('report-'));
  const summary = sampleSummary({ verdict: 'failed' });
  summary.tests.push(failed);
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  const har: HarLog = { log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [entry] } };
  writeFileSync(join(dir, 'exchanges.har'), JSON.stringify(har));
  const { htmlPath } = await buildReport({ reportsDir: dir });
  const html = readFileSync(htmlPath, 'utf8');
  const section = html.slice(html.indexOf('<section id="failed-checks">'));
  expect(section.length, 'the page has the failed checks section').toBeLessThan(html.length);
  const unescaped = (t: string) =>
    t
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  expect(section).toContain(`<h3>${failed.title} <span class="id">paging.spec.ts</span></h3>`);
  const commands = /<pre id="repro-0">([^<]*)<\/pre>/.exec(section)?.[1] ?? '';
  expect(unescaped(commands), 'the commands as the summary holds them, redaction leaving them whole').toBe(
    [failed.reproduction?.token, ...(failed.reproduction?.curls ?? [])].join('\n'),
  );
  expect(section).toContain('<button type="button" class="copy" data-copy="repro-0">Copy</button>');
  expect(html).toContain('navigator.clipboard.writeText');
  expect(section).toMatch(
    /<summary><code>GET http:\/\/127\.0\.0\.1:9\/resellers\/v6\/catalog\?pageSize=2&amp;pageNumber=1<\/code> → <b>200<\/b> <span class="id">IM-CorrelationID c0ffee/,
  );
  expect(unescaped(section)).toContain('{"recordsFound":12,"pageSize":25}');
});
