/**
 * The settings whose values have a structure (TARGET, KNOWN_IDS, MOCK_APPS, the extra headers, VENDOR_OPERATIONS,
 * the IM-* header values): each a kind (config/setting-kinds.ts) whose parse checks the structure and refuses,
 * never naming a secret, with what was expected, what was received and what to do.
 */
import { readFileSync } from 'node:fs';
import {
  headerCheck,
  IM_HEADER_CONSTRAINTS,
  IM_HEADERS,
  idSources,
  parseVendorOperations,
  DEFAULT_VENDOR_OPERATIONS,
  type Family,
  type HeaderConstraint,
  type IdName,
  type MockApp,
  type VendorOperationSpec,
} from '../catalogue';
import { kind, refuse, type Kind } from './setting-kinds';

/** TARGET: what is certified (blank: refused; empty: unset, the embedded mock). */
export const targetKind: Kind<string> = kind(
  (v) => {
    const target = v.trim();
    if (target === 'mock' || target === 'sandbox' || target === 'production' || /^https?:\/\//.test(target)) return target;
    return refuse('must be mock, sandbox, production or a base URL (http://... or https://...)', target);
  },
  {
    type: 'text',
    constraint: 'mock, sandbox, production or a base URL (http://... or https://...)',
    fallback: 'mock',
  },
);

/** A JSON object's entries, or a refusal saying what `where` must be. */
function jsonObject(text: string, where: string, example: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refuse(`${where}must be a JSON object of ${example}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return refuse(`${where}must be a JSON object`);
  return parsed as Record<string, unknown>;
}

/** KNOWN_IDS: a JSON object of id names to values, or the path of a JSON file holding one. */
export const knownIdsKind: Kind<Partial<Record<IdName, string>>> = kind(
  (v) => {
    const raw = v.trim();
    if (!raw) return {};
    let text = raw;
    if (!raw.startsWith('{')) {
      try {
        text = readFileSync(raw, 'utf8');
      } catch {
        refuse(`is neither a JSON object nor a readable file: "${raw}"; give e.g. {"orderNumber":"20-12345"} or a file path`);
      }
    }
    const out: Partial<Record<IdName, string>> = {};
    const example = 'id names to values, e.g. {"partNumber":"ABC123","orderNumber":"20-12345"}';
    for (const [k, value] of Object.entries(jsonObject(text, '', example))) {
      if (!(k in idSources)) refuse(`names an unknown id "${k}"; known ids: ${Object.keys(idSources).join(', ')}`);
      out[k as IdName] = String(value);
    }
    return out;
  },
  {
    type: 'JSON or path',
    constraint: `a JSON object of id names (${Object.keys(idSources).join(', ')}) to values, or the path of a JSON file holding one`,
    fallback: {},
    defaultText: 'none (ids come from the search answers)',
  },
);

const MOCK_APPS_SHAPE = 'must be a JSON array of {"clientId","clientSecret","family":"reseller"|"vendor"[,"webhookSecret"]}';

/** One entry of MOCK_APPS, checked; the refusal names the entry and what is wrong, never a secret. */
function configuredApp(entry: unknown, i: number): MockApp {
  const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  const text = (k: string) => typeof e[k] === 'string' && (e[k] as string).length > 0;
  const wrong = [
    ...['clientId', 'clientSecret'].filter((k) => !text(k)).map((k) => `${k} is not a non-empty string`),
    ...(e.family === 'reseller' || e.family === 'vendor' ? [] : [`family is ${JSON.stringify(e.family)}`]),
    ...(e.webhookSecret === undefined || text('webhookSecret') ? [] : ['webhookSecret is not a non-empty string']),
  ];
  if (wrong.length) refuse(`${MOCK_APPS_SHAPE}; entry ${i}: ${wrong.join(', ')}`);
  const app: MockApp = { clientId: e.clientId as string, clientSecret: e.clientSecret as string, family: e.family as Family };
  return e.webhookSecret === undefined ? app : { ...app, webhookSecret: e.webhookSecret as string };
}

/** MOCK_APPS: a JSON array of apps, each checked. */
export const mockAppsKind: Kind<MockApp[] | undefined> = kind(
  (v) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      return refuse(`${MOCK_APPS_SHAPE}; received text that is not JSON`);
    }
    if (!Array.isArray(parsed) || parsed.length === 0) return refuse(`${MOCK_APPS_SHAPE}; received no array of apps`);
    return parsed.map(configuredApp);
  },
  { type: 'JSON', constraint: MOCK_APPS_SHAPE.replace(/^must be /, ''), fallback: undefined, defaultText: "the mock's demo apps" },
);

const HEADER_OBJECT = 'header names to values, e.g. {"IM-CustomerNumber":"20-222222"}';

/** EXTRA_HEADERS: a JSON object of header names to values. */
export const extraHeadersKind: Kind<Record<string, string>> = kind(
  (v) => Object.fromEntries(Object.entries(jsonObject(v, '', HEADER_OBJECT)).map(([k, value]) => [k, String(value)])),
  { type: 'JSON', constraint: `a JSON object of ${HEADER_OBJECT}`, fallback: {}, defaultText: 'none' },
);

/** HEADERS_PROFILE: the path of a JSON file of header names to values. */
export const headersProfileKind: Kind<Record<string, string>> = kind(
  (file) => {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      refuse(`points at ${file}, which cannot be read; give a JSON file of extra headers`);
    }
    return Object.fromEntries(Object.entries(jsonObject(text, `(${file}) `, HEADER_OBJECT)).map(([k, value]) => [k, String(value)]));
  },
  { type: 'path', constraint: `a readable JSON file holding an object of ${HEADER_OBJECT}`, fallback: {}, defaultText: 'none' },
);

/** VENDOR_OPERATIONS: "METHOD /path" entries, comma-separated, or a JSON array of operations. */
export const vendorOperationsKind: Kind<VendorOperationSpec[] | undefined> = kind(
  (v) => {
    try {
      return parseVendorOperations(v);
    } catch (e) {
      // The catalogue's refusal names the variable and the entry; JSON's names neither.
      const why = (e as Error).message;
      return refuse(why.startsWith('VENDOR_OPERATIONS ') ? why : `is not a JSON array of operations (${why})`);
    }
  },
  {
    type: 'list or JSON',
    constraint: '"METHOD /path" entries, comma-separated (GET, POST, PUT or DELETE), or a JSON array of {"id","method","path"}',
    fallback: undefined,
    defaultText: DEFAULT_VENDOR_OPERATIONS.map((o) => `${o.method} ${o.path}`).join(', '),
  },
);

/** IM-* header values by variable; the defaults are the embedded mock's. */
export const IM_HEADER_VARIABLES = {
  IM_CUSTOMER_NUMBER: { header: IM_HEADERS.customerNumber, mockDefault: '20-222222' },
  IM_COUNTRY_CODE: { header: IM_HEADERS.countryCode, mockDefault: 'US' },
  IM_CUSTOMER_CONTACT: { header: IM_HEADERS.customerContact, mockDefault: 'certification@example.com' },
  IM_APPLICATION_ID: { header: IM_HEADERS.applicationId, mockDefault: 'distributor-harness' },
  IM_SENDER_ID: { header: IM_HEADERS.senderId, mockDefault: 'distributor-harness' },
} as const;

/** A header constraint in words: "at most 10 characters". */
function constraintInWords(c: HeaderConstraint): string {
  const length =
    c.minLength !== undefined && c.minLength === c.maxLength
      ? `exactly ${c.minLength} characters`
      : [c.minLength !== undefined && `at least ${c.minLength}`, c.maxLength !== undefined && `at most ${c.maxLength}`]
          .filter(Boolean)
          .join(' and ') + ' characters';
  const rest = [c.pattern !== undefined && `matching ${c.pattern}`, c.enum && `one of ${c.enum.join(', ')}`].filter(Boolean);
  return [c.minLength === undefined && c.maxLength === undefined ? '' : length, ...rest].filter(Boolean).join(', ');
}

/** An IM-* header's value: one line, within the published document's constraint on the header; blank: the mock's value. */
export function imHeaderKind(v: (typeof IM_HEADER_VARIABLES)[keyof typeof IM_HEADER_VARIABLES]): Kind<string> {
  const c = IM_HEADER_CONSTRAINTS[v.header];
  const check = headerCheck(v.header, c);
  return kind(
    (raw) => {
      const value = raw.trim() || v.mockDefault;
      if (/[\r\n]/.test(value)) refuse('must be a single-line header value, received a value with a line break');
      const why = check(value);
      if (why)
        refuse(
          `breaks the published document's constraint on ${v.header}: ${why}; set the value your account was given (see .env.example)`,
        );
      return value;
    },
    {
      type: 'text',
      constraint: `one line of ${constraintInWords(c)} (the published document's constraint on ${v.header})`,
      fallback: v.mockDefault,
    },
  );
}
