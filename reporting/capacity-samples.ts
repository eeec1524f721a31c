/**
 * The raw requests of a capacity run, read back from k6's own file output: `--out json=<file>` (JSON
 * lines) or `--out csv=<file>`, gzip-compressed or not (told by the content, not the name). Each
 * `http_req_duration` sample tagged `operation` (the capacity script tags every request with its
 * operation id) is one request: its duration and its outcome (status, k6's `expected_response`).
 *
 * Read defensively, per k6's documented formats, so the output of k6 v0.48, v1.x and v2.x all read:
 * JSON lines other than `Point` (the `Metric` declarations) are skipped, `data.tags` may be null, unknown
 * fields are ignored; CSV columns are found by their header names (the tag columns depend on the enabled
 * system tags and the version: `metadata` came later), a tag without a column is read from `extra_tags`
 * (`k=v&k=v`). A line that cannot be read is an error naming the file and the line.
 */
import { createReadStream, openSync, readSync, closeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';

/** One request of one operation. */
export interface RequestSample {
  durationMs: number;
  /** HTTP status; 0 for a request that got no answer. */
  status: number;
  /** k6's `expected_response` (a status its response callback accepts, by default 200–399); from the status when absent. */
  expected: boolean;
}

/** The requests of every operation of a run, by operation id. */
export type RunSamples = Map<string, RequestSample[]>;

/** The metric whose samples are the requests. */
const REQUEST_METRIC = 'http_req_duration';
/** The tag the capacity script gives every request. */
const OPERATION_TAG = 'operation';

function isGzip(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    readSync(fd, head, 0, 2, 0);
    return head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/** The file's content, decompressed when gzip. */
function streamOf(file: string): Readable {
  const raw: Readable = createReadStream(file);
  return isGzip(file) ? raw.pipe(createGunzip()) : raw;
}

/** A request's outcome from its tags. */
function requestSampleOf(value: number, tags: Readonly<Record<string, string | undefined>>): RequestSample {
  const status = Number(tags.status ?? 0);
  const expected = tags.expected_response !== undefined ? tags.expected_response === 'true' : status >= 200 && status < 400;
  return { durationMs: value, status: Number.isFinite(status) ? status : 0, expected };
}

function add(out: RunSamples, id: string, s: RequestSample): void {
  const list = out.get(id);
  if (list) list.push(s);
  else out.set(id, [s]);
}

interface JsonPoint {
  type?: string;
  metric?: string;
  data?: { value?: number; tags?: Record<string, string> | null };
}

function readJsonLine(line: string, out: RunSamples): void {
  const p = JSON.parse(line) as JsonPoint;
  if (p.type !== 'Point' || p.metric !== REQUEST_METRIC) return;
  const tags = p.data?.tags ?? {};
  const id = tags[OPERATION_TAG];
  if (id === undefined || typeof p.data?.value !== 'number') return;
  add(out, id, requestSampleOf(p.data.value, tags));
}

/** Columns of k6's CSV output that are not tags. */
const CSV_NOT_TAGS = new Set(['metric_name', 'timestamp', 'metric_value', 'extra_tags', 'metadata']);

/** A CSV row's tags: its tag columns, then `extra_tags` (`k=v&k=v`) for the tags without a column. */
function csvTags(row: Readonly<Record<string, string>>): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [name, v] of Object.entries(row)) if (v && !CSV_NOT_TAGS.has(name)) tags[name] = v;
  for (const pair of row.extra_tags ? row.extra_tags.split('&') : []) {
    const j = pair.indexOf('=');
    if (j > 0 && tags[pair.slice(0, j)] === undefined) tags[pair.slice(0, j)] = pair.slice(j + 1);
  }
  return tags;
}

function readCsvRow(row: Readonly<Record<string, string>>, out: RunSamples): void {
  if (row.metric_name !== REQUEST_METRIC) return;
  const tags = csvTags(row);
  const id = tags[OPERATION_TAG];
  const value = Number(row.metric_value);
  if (id === undefined || !Number.isFinite(value)) return;
  add(out, id, requestSampleOf(value, tags));
}

/** k6's CSV output: a header naming the columns (metric_name, timestamp, metric_value first), then one row per sample. */
async function readCsv(file: string, out: RunSamples): Promise<void> {
  const rows = streamOf(file).pipe(parse({ columns: true, relax_column_count: true, skip_empty_lines: true }));
  let n = 1;
  for await (const row of rows as AsyncIterable<Record<string, string>>) {
    n++;
    if (n === 2 && (row.metric_name === undefined || row.metric_value === undefined))
      throw new Error(`${file} is not k6 CSV output: expected a header metric_name,timestamp,metric_value,…`);
    readCsvRow(row, out);
  }
}

/** k6's JSON output: one JSON object a line. */
async function readJson(file: string, out: RunSamples): Promise<void> {
  let n = 0;
  for await (const line of createInterface({ input: streamOf(file), crlfDelay: Infinity })) {
    n++;
    if (!line.trim()) continue;
    try {
      readJsonLine(line, out);
    } catch (e) {
      throw new Error(`${file} line ${n} is not k6 JSON output: ${(e as Error).message}`, { cause: e });
    }
  }
}

/** The first character of the file's (decompressed) content. */
async function firstCharOf(file: string): Promise<string> {
  for await (const chunk of streamOf(file)) {
    const text = (chunk as Buffer).toString().trimStart();
    if (text) return text[0] as string;
  }
  return '';
}

/**
 * The requests of a k6 JSON or CSV output file (plain or gzip), by operation. Throws, naming the file (and the
 * line for JSON), when it is neither.
 */
export async function readRunSamples(file: string): Promise<RunSamples> {
  const out: RunSamples = new Map();
  if ((await firstCharOf(file)) === '{') await readJson(file, out);
  else await readCsv(file, out);
  return out;
}
