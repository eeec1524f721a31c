/**
 * k6's file outputs as the k6 under test writes them (the double by default; any real k6 with K6_BIN): `--out
 * json=<file>` and `--out csv=<file>`, gzip-compressed when the name ends in .gz, k6's CSV columns and JSON
 * Metric/Point lines, the refusals of a CSV argument k6 refuses; and the comparison's reader reads both alike.
 */
import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { k6 } from '../../load/run';
import { readRunSamples } from '../../../reporting/capacity-samples';

const SCRIPT = `
import http from 'k6/http';
export const options = { iterations: 6, thresholds: { http_req_duration: ['p(95)<5000'] } };
export default function () { http.get(__ENV.URL + '/x', { tags: { operation: 'op.one' } }); }
`;

/** The most a CSV metric_value differs from the value: half of its last (sixth) decimal, with a float's slack. */
const CSV_ROUNDING_MS = 0.5e-6 + 1e-9;

test.describe('the k6 file outputs', () => {
  let server: Server;
  let url = '';
  test.beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('should write gzip JSON and CSV outputs that read back as the same requests', async () => {
    const script = test.info().outputPath('script.js');
    writeFileSync(script, SCRIPT);
    const [json, csv] = [test.info().outputPath('out.json.gz'), test.info().outputPath('out.csv.gz')];
    const r = await k6(['run', '-q', '--address', '', '--out', `json=${json}`, '-o', `csv=${csv}`, '-e', `URL=${url}`, script]);
    expect(r.code, r.stderr).toBe(0);
    const csvLines = gunzipSync(readFileSync(csv)).toString().trim().split('\n');
    expect(csvLines[0]).toBe(
      'metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata',
    );
    expect(csvLines.find((l) => l.startsWith('http_req_duration,'))).toMatch(
      /^http_req_duration,\d{10},\d+\.\d{6},.*,true,.*,GET,.*,200,.*operation=op\.one/,
    );
    const jsonLines = gunzipSync(readFileSync(json))
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; metric: string; data: Record<string, unknown> });
    const declared = jsonLines.find((l) => l.type === 'Metric' && l.metric === 'http_req_duration');
    expect(declared?.data).toMatchObject({ name: 'http_req_duration', type: 'trend', contains: 'time', thresholds: ['p(95)<5000'] });
    const fromJson = (await readRunSamples(json)).get('op.one') ?? [];
    const fromCsv = (await readRunSamples(csv)).get('op.one') ?? [];
    expect(fromJson).toHaveLength(6);
    // k6's CSV writes metric_value with six decimals (Go's strconv.FormatFloat(v, 'f', 6, 64)), its JSON the whole
    // float: the same request reads back the same but for that rounding (half a millionth of a millisecond).
    expect(fromCsv.map(({ durationMs: _d, ...s }) => s)).toEqual(fromJson.map(({ durationMs: _d, ...s }) => s));
    fromCsv.forEach((s, i) =>
      expect(Math.abs(s.durationMs - (fromJson[i]?.durationMs ?? NaN)), `request ${i}`).toBeLessThanOrEqual(CSV_ROUNDING_MS),
    );
    expect(fromJson[0]).toMatchObject({ status: 200, expected: true });
  });

  test('should refuse a CSV argument k6 refuses and an output in a missing folder, with exit 255', async () => {
    const script = test.info().outputPath('script.js');
    writeFileSync(script, SCRIPT);
    const [key, format, folder] = await Promise.all([
      k6(['run', '-q', '--address', '', '--out', 'csv=fileName=a.csv,colour=red', '-e', `URL=${url}`, script]),
      k6([
        'run',
        '-q',
        '--address',
        '',
        '--out',
        `csv=fileName=${test.info().outputPath('b.csv')},timeFormat=weekday`,
        '-e',
        `URL=${url}`,
        script,
      ]),
      k6(['run', '-q', '--address', '', '--out', `json=${test.info().outputPath('missing', 'c.json.gz')}`, '-e', `URL=${url}`, script]),
    ]);
    expect(key.code).toBe(255);
    // k6 logs in logfmt, its quotes escaped.
    expect(key.stderr).toMatch(/could not create the 'csv' output: unknown key \\?"colour\\?" as argument for csv output/);
    expect(format.code).toBe(255);
    expect(format.stderr).toMatch(/weekday does not belong to TimeFormat values/);
    expect(folder.code).toBe(255);
    expect(folder.stderr).toMatch(/no such file or directory/);
  });
});
