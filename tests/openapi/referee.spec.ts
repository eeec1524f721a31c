/**
 * An independent referee of the requests certify sends: Stoplight Prism's validating proxy
 * (`prism proxy <document> <upstream>`, a maintained OpenAPI validator the harness does not write)
 * judges every business call against the distributor's published document, between certify and the
 * mock. Prism's proxy forwards every request and lists, in the answer's `sl-violations` header, what
 * the document refuses (severity Error): a request listed there would be refused by a service that
 * enforces its document (422, or 401 without the security the document asks for).
 *
 * Certify runs the reseller family in production (the document describes neither the vendor family
 * nor the /sandbox prefix), which covers every shared business operation. Token requests go to the
 * mock directly: the seed spec documents the form-body POST, the document a GET with query parameters
 * (recorded as the finding openapi.token-method), and Prism refuses the method the seed documents.
 *
 * The document's path comes from VENDOR_OPENAPI (`.ci/run` sets it); without it the test is skipped.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { IM_HEADER_CONSTRAINTS, IM_HEADERS } from '../../catalogue';
import { startMock } from '../../mock';
import { certify, MOCK_APPS_ENV } from '../contracts/support/run-certify';
import { validCallsOf } from '../contracts/support/greps';

const DOC = process.env.VENDOR_OPENAPI;
const require = createRequire(import.meta.url);

interface Violation {
  location: string[];
  severity: string;
  message: string;
}

interface Exchange {
  method: string;
  path: string;
  correlationId: string;
  status: number;
  /** The request violations Prism lists with severity Error: what a service enforcing the document refuses. */
  refusal?: string[];
  /** Request warnings (e.g. a path the document does not describe). */
  warnings?: string[];
  /** Why the request breaks the document on purpose (a negative check), or undefined for a request meant to be valid. */
  deliberate?: string;
}

/** The negative checks of certify, told by their request: each breaks the document on purpose. */
function deliberateOf(method: string, path: string, h: IncomingHttpHeaders, body: string): string | undefined {
  if (!h.authorization) return 'no token';
  if (!h[IM_HEADERS.customerNumber.toLowerCase()] && !path.includes('/webhooks/')) return 'missing IM-CustomerNumber';
  const max = IM_HEADER_CONSTRAINTS[IM_HEADERS.correlationId].maxLength ?? 32;
  if ((h[IM_HEADERS.correlationId.toLowerCase()]?.length ?? 0) > max) return 'IM-CorrelationID too long';
  if (path.includes('/webhooks/') && !/"eventId":"/.test(body)) return 'invalid event';
  if (method === 'GET' && /\/deals\/[^/?]+(\?|$)/.test(path) && !/[?&]vendorName=/.test(path)) return 'client form: no vendorName';
  if (path.endsWith('/freightestimate') && /"shipToAddress":\[/.test(body)) return 'client form: shipToAddress array';
  if (path.endsWith('/returns/create') && /"invoiceDate":"\d{4}-\d{2}-\d{2}T/.test(body)) return 'client form: invoiceDate date-time';
  return undefined;
}

/** A port free on the loopback now (Prism takes a port number, not 0). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts Prism's validating proxy in front of `upstream`; resolves with its URL once it listens. */
async function startPrism(doc: string, upstream: string): Promise<{ url: string; stop: () => void; log: () => string }> {
  const bin = require.resolve('@stoplight/prism-cli/dist/index.js');
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'proxy', doc, upstream, '--host', '127.0.0.1', '--port', String(port)], {
    env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start within 60 s:\n${log.slice(-2000)}`)), 60_000);
    const onData = (c: Buffer) => {
      log += c.toString('utf8');
      const m = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`prism exited with ${code}:\n${log.slice(-2000)}`)));
  });
  return { url, stop: () => child.kill('SIGTERM'), log: () => log };
}

test.describe('the requests certify sends, judged by an independent validator', () => {
  test('should send only requests the published document accepts, except the deliberate negative checks', async () => {
    test.skip(!DOC, 'VENDOR_OPENAPI is not set: give the path of the distributor published OpenAPI document (`.ci/run` sets it)');
    test.setTimeout(240_000);
    const mock = await startMock({ windowMs: 60_000 });
    const prism = await startPrism(DOC as string, mock.url);
    const mockUrl = new URL(mock.url);
    const prismUrl = new URL(prism.url);
    const exchanges: Exchange[] = [];
    // The front certify talks to: token requests to the mock, every other request through Prism.
    const front = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const path = req.url ?? '/';
        const viaPrism = !path.includes('/oauth/');
        const to = viaPrism ? prismUrl : mockUrl;
        const up = httpRequest(
          { host: to.hostname, port: to.port, method: req.method, path, headers: { ...req.headers, host: to.host } },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (c: Buffer) => parts.push(c));
            answer.on('end', () => {
              const text = Buffer.concat(parts);
              if (viaPrism) {
                const e: Exchange = {
                  method: req.method ?? '',
                  path,
                  correlationId: String(req.headers[IM_HEADERS.correlationId.toLowerCase()] ?? ''),
                  status: answer.statusCode ?? 0,
                };
                const deliberate = deliberateOf(e.method, path, req.headers, body.toString('utf8'));
                if (deliberate) e.deliberate = deliberate;
                // Prism's proxy forwards every request and lists what the document refuses in sl-violations.
                const listed = answer.headers['sl-violations'];
                const found = typeof listed === 'string' ? (JSON.parse(listed) as Violation[]) : [];
                const errors = found.filter((v) => v.location[0] === 'request' && v.severity === 'Error');
                if (errors.length) e.refusal = errors.map((v) => `${v.location.join('.')}: ${v.message}`);
                const warnings = found.filter((v) => v.location[0] === 'request' && v.severity !== 'Error');
                if (warnings.length) e.warnings = warnings.map((v) => `${v.location.join('.')}: ${v.message}`);
                exchanges.push(e);
              }
              res.writeHead(answer.statusCode ?? 502, answer.headers).end(text);
            });
          },
        );
        up.on('error', (err) => res.writeHead(502).end(String(err)));
        up.end(body);
      });
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const env = {
        ...MOCK_APPS_ENV,
        RESELLER_B_CLIENT_ID: 'demo-reseller-b',
        RESELLER_B_CLIENT_SECRET: 'demo-reseller-b-secret',
        TARGET: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
        FAMILIES: 'reseller',
        ENVIRONMENTS: 'production',
        REQUEST_BUDGET: '2000',
        WEBHOOK_SECRET: 'demo-reseller-webhook-secret',
        IM_CUSTOMER_NUMBER: '20-222222',
        IM_COUNTRY_CODE: 'US',
        IM_CUSTOMER_CONTACT: 'certification@example.com',
        IM_APPLICATION_ID: 'distributor-harness',
        IM_SENDER_ID: 'distributor-harness',
      };
      const r = await certify(env);
      // The input values both forms refuse, sent on purpose (contracts/inputs.spec.ts), by their correlation ids in input.lenient's evidence.
      const inputRefused = new Set(
        r
          .findings()
          .filter((f) => f.id.startsWith('input.lenient'))
          .flatMap((f) => [...f.evidence.matchAll(/^refused .*?IM-CorrelationID ([0-9a-f]+)/gm)].map((m) => m[1])),
      );
      for (const e of exchanges) if (!e.deliberate && inputRefused.has(e.correlationId)) e.deliberate = 'input value both forms refuse';
      const valid = exchanges.filter((e) => !e.deliberate);
      const violations = valid.filter((e) => e.refusal);
      const refusedDeliberate = exchanges.filter((e) => e.deliberate && e.refusal);
      const figure = {
        requests: exchanges.length,
        meantValid: valid.length,
        violationsOnValid: violations.length,
        deliberate: exchanges.length - valid.length,
        refusedDeliberate: refusedDeliberate.length,
        inputValuesRefused: `${refusedDeliberate.filter((e) => e.deliberate === 'input value both forms refuse').length} of ${inputRefused.size}`,
        warningsOnValid: valid.filter((e) => e.warnings).map((e) => `${e.method} ${e.path}: ${e.warnings?.join('; ')}`),
        operationsCovered: new Set(valid.filter((e) => e.status < 300).map((e) => `${e.method} ${e.path.replace(/\?.*/, '')}`)).size,
      };
      test.info().annotations.push({ type: 'prism-referee', description: JSON.stringify(figure) });
      console.log(`prism referee: ${JSON.stringify(figure)}`);
      expect(
        violations.map((e) => `${e.method} ${e.path} (IM-CorrelationID ${e.correlationId}) → ${e.refusal?.join('; ')}`),
        'requests meant to be valid that the document refuses',
      ).toEqual([]);
      // The referee works: it refused each kind of deliberate negative check certify sends.
      const kinds = new Set(refusedDeliberate.map((e) => e.deliberate));
      for (const k of [
        'no token',
        'missing IM-CustomerNumber',
        'IM-CorrelationID too long',
        'invalid event',
        'input value both forms refuse',
      ])
        expect(kinds.has(k), `Prism refused a "${k}" request; refused kinds: ${[...kinds].join(', ')}`).toBe(true);
      expect(
        valid.filter((e) => e.path.includes('/webhooks/')).every((e) => e.status < 300 || e.status === 401),
        'the signed webhook calls pass Prism',
      ).toBe(true);
      expect(figure.meantValid, 'certify sent its valid checks through the referee').toBeGreaterThan(40);
      // Nothing failed; what a URL target leaves out of scope (no PROBE_LIMITS) or cannot apply (the mock's clock) is listed: exit 0.
      expect(r.status, `certify through the referee passes\n${r.stdout.slice(-3000)}${r.stderr.slice(-1500)}`).toBe(0);

      // The referee can fail: a harness that sent an IM-SenderID longer than the document allows is caught on
      // its valid calls (one check, through the same referee).
      exchanges.length = 0;
      await certify({ ...env, EXTRA_HEADERS: JSON.stringify({ [IM_HEADERS.senderId]: 's'.repeat(33) }) }, [
        '-g',
        validCallsOf(['catalog.search']),
      ]);
      const caught = exchanges.filter((e) => !e.deliberate && e.refusal?.some((v) => /im-senderid.*32 characters/i.test(v)));
      expect(
        caught.length,
        `Prism lists the too-long IM-SenderID of a valid call; exchanges: ${JSON.stringify(exchanges)}`,
      ).toBeGreaterThan(0);
    } finally {
      front.closeAllConnections();
      await new Promise((r) => front.close(r));
      prism.stop();
      await mock.close();
    }
  });
});
