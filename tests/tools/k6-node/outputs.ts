/**
 * k6's file outputs, `--out json=<file>` and `--out csv=<file | key=value,...>`, as k6 writes them
 * (output/json, output/csv of grafana/k6): a file name ending in `.gz` is gzip-compressed; `-` or no
 * name writes to stdout. JSON: one `Metric` line the first time a metric is seen, then one `Point` line
 * per sample (`data.time`, `data.value`, `data.tags`). CSV: `metric_name,timestamp,metric_value`, one
 * column per indexable system tag enabled by default (sorted), `extra_tags` (`k=v&k=v`) and `metadata`;
 * `timeFormat` unix (default), unix_milli, unix_micro, unix_nano, rfc3339 or rfc3339_nano; `fileName` and
 * `saveInterval` (k6 v0.48 to v2.2). k6 v2 refuses an unknown CSV key (the deprecated `file_name` and
 * `save_interval` too) and a pair without a value; the double refuses them with the same words.
 */
import { gzipSync } from 'node:zlib';
import type { MetricType, Tags } from './run-state';

/** k6's default system tags that get a CSV column (vu and iter are not indexable; ip and ocsp_status are off). */
const CSV_TAG_COLUMNS = [
  'check',
  'error',
  'error_code',
  'expected_response',
  'group',
  'method',
  'name',
  'proto',
  'scenario',
  'service',
  'status',
  'subproto',
  'tls_version',
  'url',
] as const;

const CSV_TIME_FORMATS = ['unix', 'unix_milli', 'unix_micro', 'unix_nano', 'rfc3339', 'rfc3339_nano'] as const;
type CsvTimeFormat = (typeof CSV_TIME_FORMATS)[number];

/** One file output of the run. */
export type FileOutput = { kind: 'json'; file: string } | { kind: 'csv'; file: string; timeFormat: CsvTimeFormat };

/** The CSV output's argument, read as k6's ParseArg reads it. */
function csvOutput(arg: string): FileOutput {
  if (!arg.includes('=')) return { kind: 'csv', file: arg || 'file.csv', timeFormat: 'unix' };
  const out: { kind: 'csv'; file: string; timeFormat: CsvTimeFormat } = { kind: 'csv', file: 'file.csv', timeFormat: 'unix' };
  for (const pair of arg.split(',')) {
    const i = pair.indexOf('=');
    const [key, value] = i < 0 ? [pair, ''] : [pair.slice(0, i), pair.slice(i + 1)];
    if (!value) throw new Error(`couldn't parse "${arg}" as argument for csv output`);
    if (key === 'fileName') out.file = value;
    else if (key === 'timeFormat') {
      if (!(CSV_TIME_FORMATS as readonly string[]).includes(value))
        throw new Error(`${value} does not belong to TimeFormat values (${CSV_TIME_FORMATS.join(', ')})`);
      out.timeFormat = value as CsvTimeFormat;
    } else if (key !== 'saveInterval') throw new Error(`unknown key "${key}" as argument for csv output`);
  }
  return out;
}

/**
 * The `--out` values: the file outputs the double writes, and the others (k6 sends them; the double
 * cannot). Throws k6's refusal for a CSV argument k6 refuses.
 */
export function parseOutputs(outs: readonly string[]): { files: FileOutput[]; ignored: string[] } {
  const files: FileOutput[] = [];
  const ignored: string[] = [];
  for (const o of outs) {
    const i = o.indexOf('=');
    const [type, arg] = i < 0 ? [o, ''] : [o.slice(0, i), o.slice(i + 1)];
    if (type === 'json') files.push({ kind: 'json', file: arg || '-' });
    else if (type === 'csv') files.push(csvOutput(arg));
    else ignored.push(o);
  }
  return { files, ignored };
}

/** What a k6 metric contains: time for the built-in timings, data for bytes, else default. */
function containsOf(metric: string, type: MetricType): string {
  if (type === 'trend' && (metric.startsWith('http_req_') || metric === 'iteration_duration')) return 'time';
  return metric === 'data_sent' || metric === 'data_received' ? 'data' : 'default';
}

/** Go's %f. */
const goFloat = (v: number) => v.toFixed(6);

/** Go's encoding/csv quoting. */
function csvField(s: string): string {
  return s === '' || !/[",\r\n]|^[ \t]/.test(s) ? s : `"${s.replace(/"/g, '""')}"`;
}

/** A sample's time as k6 writes it (the double's clock has millisecond resolution). */
function csvTime(t: number, f: CsvTimeFormat): string {
  const units: Partial<Record<CsvTimeFormat, bigint>> = { unix_milli: 1n, unix_micro: 1000n, unix_nano: 1_000_000n };
  if (f === 'unix') return String(Math.floor(t / 1000));
  const unit = units[f];
  if (unit !== undefined) return (BigInt(t) * unit).toString();
  const iso = new Date(t).toISOString();
  return f === 'rfc3339' ? iso.replace(/\.\d+Z$/, 'Z') : iso.replace(/\.?0*Z$/, 'Z');
}

function csvRow(metric: string, value: number, tags: Tags, t: number, f: CsvTimeFormat): string {
  const columns = new Set<string>(CSV_TAG_COLUMNS);
  const extra = Object.entries(tags)
    .filter(([k]) => !columns.has(k))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const cells = [metric, csvTime(t, f), goFloat(value), ...CSV_TAG_COLUMNS.map((c) => tags[c] ?? ''), extra, ''];
  return cells.map(csvField).join(',');
}

/** The lines of one file output, collected sample by sample. */
export class OutputWriter {
  private readonly lines: string[] = [];
  private readonly seen = new Set<string>();

  constructor(
    readonly output: FileOutput,
    /** The threshold expressions by metric name (k6's Metric line lists those of its exact name). */
    private readonly thresholds: Readonly<Record<string, readonly string[]>>,
  ) {
    if (output.kind === 'csv')
      this.lines.push(['metric_name', 'timestamp', 'metric_value', ...CSV_TAG_COLUMNS, 'extra_tags', 'metadata'].join(','));
  }

  sample(metric: string, type: MetricType, value: number, tags: Tags, t: number): void {
    const o = this.output;
    if (o.kind === 'csv') return void this.lines.push(csvRow(metric, value, tags, t, o.timeFormat));
    if (!this.seen.has(metric)) {
      this.seen.add(metric);
      const data = { name: metric, type, contains: containsOf(metric, type), thresholds: this.thresholds[metric] ?? [], submetrics: null };
      this.lines.push(JSON.stringify({ type: 'Metric', data, metric }));
    }
    const data = { time: new Date(t).toISOString(), value, tags: Object.keys(tags).length ? tags : null };
    this.lines.push(JSON.stringify({ metric, type: 'Point', data }));
  }

  /** The file's content: gzip-compressed when its name ends in `.gz`, as k6 does. */
  content(): Buffer {
    const text = Buffer.from(this.lines.map((l) => `${l}\n`).join(''));
    return this.output.file.endsWith('.gz') ? gzipSync(text) : text;
  }
}
