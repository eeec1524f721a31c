/**
 * The HAR 1.2 shapes the harness writes (reports/exchanges.har, contracts/record/har-entry.ts) and the report
 * reads: the fields of the format it fills, and its own `_`-prefixed fields, which HAR allows.
 */
export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** The check the exchange belongs to, as the summary titles it (a grouped check's own title). */
  _check?: string;
  /** The spec file of the check, e.g. paging.spec.ts. */
  _file?: string;
  _correlationId: string;
  /** Whether the request carried a token the target issued to the harness, or one the check made up (both redacted). */
  _token?: 'issued' | 'made-up';
  /** Whether a client_secret the request sent (form, query or JSON) was the configured one, or one the check made up. */
  _clientSecret?: 'configured' | 'made-up';
  /** A request that got no usable answer (status 0, as browsers record it): the harness's failure (a timeout, say). */
  _failure?: string;
}

/** A HAR file: the run's exchanges in the order they were sent. */
export interface HarLog {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[] };
}
