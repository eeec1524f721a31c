/**
 * A failed check sent again from one paste: for the exchanges of the run (exchanges.har) that show its broken fact,
 * a `curl` per request (method, URL with its query, headers, body) with the token as "$ACCESS_TOKEN" and the
 * command that sets it for that family and environment, built from the run's own token request with the client
 * secret as "$<FAMILY>_CLIENT_SECRET". Nothing secret is in them: they are built from the redacted HAR.
 */
import { environmentRoot, ENVIRONMENTS, familyBase, type EnvironmentName, type Family } from '../../catalogue';
import { tokenEndpoints } from '../../catalogue/tokens';
import type { Reproduction, TestResult } from '../../reporting/report-shapes';
import type { HarEntry } from '../record/har-entry';

/** Exchanges a reproduction shows at most: the broken fact is in the last ones. */
const MAX_EXCHANGES = 3;

/** A word the shell takes literally. */
export const shellQuoted = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The variable holding a family's client secret (.env.example). */
const secretVariable = (family: Family): string => `${family.toUpperCase()}_CLIENT_SECRET`;

/** Where the run got a family's token in an environment: its token exchange, and the base URL it implies. */
interface TokenSource {
  family: Family;
  environment: EnvironmentName;
  base: string;
  entry: HarEntry;
}

/** The run's first token exchange that issued a token, per family and environment. */
function tokenSources(entries: readonly HarEntry[]): TokenSource[] {
  const sources: TokenSource[] = [];
  for (const [family, ep] of Object.entries(tokenEndpoints) as [Family, (typeof tokenEndpoints)[Family]][]) {
    for (const environment of ENVIRONMENTS) {
      const suffix = `${environmentRoot[environment]}${ep.path}`;
      const entry = entries.find(
        (e) =>
          e.response.status === 200 && e._clientSecret === 'configured' && e.request.method === ep.method && urlPath(e).endsWith(suffix),
      );
      if (!entry) continue;
      const u = new URL(entry.request.url);
      sources.push({ family, environment, base: `${u.origin}${u.pathname.slice(0, -suffix.length)}`, entry });
    }
  }
  return sources;
}

const urlPath = (e: HarEntry): string => new URL(e.request.url).pathname;

/** The token source of a request: the family and environment whose base its URL starts with (vendor before reseller, whose base is the root). */
function sourceOf(e: HarEntry, sources: readonly TokenSource[]): TokenSource | undefined {
  const url = e.request.url;
  const under = (s: TokenSource) => url.startsWith(`${s.base}${familyBase(s.family, s.environment)}/`);
  return (
    sources.find((s) => s.family === 'vendor' && under(s)) ??
    sources.find((s) => s.family === 'reseller' && s.environment === 'sandbox' && under(s)) ??
    sources.find((s) => s.family === 'reseller' && s.environment === 'production' && under(s))
  );
}

const MARKER = /\[REDACTED\]|%5BREDACTED%5D/g;

/** Which secrets of a request the commands can send from variables: the issued token, the configured client secret. */
interface Secrets {
  /** The family whose client secret the request sent, when it sent the configured one. */
  secretOf?: Family;
  /** The request sent the configured client secret (of a family the run's token requests do not tell). */
  configuredSecret: boolean;
  issuedToken: boolean;
}

const SECRET_BEFORE = /client_secret(=|"\s*:\s*")$/;
const TOKEN_BEFORE = /Bearer $/i;

/** The variable of a redacted part, by the text before it; none for a secret the check made up. */
function variableFor(before: string, secret: Secrets): string | undefined {
  if (SECRET_BEFORE.test(before)) return secret.secretOf && secretVariable(secret.secretOf);
  return TOKEN_BEFORE.test(before) && secret.issuedToken ? 'ACCESS_TOKEN' : undefined;
}

function whatIsRedacted(before: string, text: string, secret: Secrets): string {
  if (SECRET_BEFORE.test(before)) {
    return secret.configuredSecret
      ? "the client secret (the run's token requests do not tell whose)"
      : 'a client secret the check made up (redacted)';
  }
  return TOKEN_BEFORE.test(before) ? 'a token the check made up (redacted)' : `a redacted value in ${shortened(text)}`;
}

/**
 * A shell word for `text` whose redacted parts are variables where the harness knows which: a client secret
 * (after `client_secret=`), the issued token (after `Bearer `); every other redacted part stays redacted and is named.
 */
function shellWord(text: string, secret: Secrets, missing: string[]): string {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(MARKER)) {
    const before = text.slice(0, m.index);
    const variable = variableFor(before, secret);
    if (!variable) {
      missing.push(whatIsRedacted(before, text, secret));
      continue;
    }
    // The character before the secret goes inside the variable's quotes: `client_secret=`, `"client_secret":"` and
    // `Bearer ` never stand whole in the command, so the redaction every printed line passes leaves it as it is.
    const cut = Math.max(last, m.index - 1);
    parts.push(shellQuoted(text.slice(last, cut)), `"${doubleQuoted(text.slice(cut, m.index))}$${variable}"`);
    last = m.index + m[0].length;
  }
  parts.push(shellQuoted(text.slice(last)));
  return parts.filter((p) => p !== "''").join('') || "''";
}

/** Text inside double quotes: the characters the shell reads there escaped. */
const doubleQuoted = (s: string): string => s.replace(/["$`\\]/g, '\\$&');

const shortened = (s: string): string => (s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** A form body field by field, as curl joins them with `&`: a redacted secret URL-encoded from its variable. */
function formArgs(text: string, secret: Secrets, missing: string[]): string[] {
  return text.split('&').flatMap((pair) => {
    const name = pair.slice(0, pair.indexOf('='));
    if (name === 'client_secret' && secret.secretOf && /=(\[REDACTED\]|%5BREDACTED%5D)$/.test(pair)) {
      return ['--data-urlencode', `"client_secret=$${secretVariable(secret.secretOf)}"`];
    }
    return ['--data-raw', shellWord(pair, secret, missing)];
  });
}

/** The request of an exchange as one curl command line (`-i`: the status line and headers print before the body). */
export function curlOf(e: HarEntry, family: Family | undefined, missing: string[]): string {
  const secret: Secrets = {
    issuedToken: e._token === 'issued',
    configuredSecret: e._clientSecret === 'configured',
    ...(e._clientSecret === 'configured' && family ? { secretOf: family } : {}),
  };
  const args = ['curl', '-sS', '-i', '-X', e.request.method, shellWord(e.request.url, secret, missing)];
  for (const h of e.request.headers) args.push('-H', shellWord(`${h.name}: ${h.value}`, secret, missing));
  const body = e.request.postData;
  if (body && /x-www-form-urlencoded/i.test(body.mimeType) && body.text) args.push(...formArgs(body.text, secret, missing));
  else if (body) args.push('--data-raw', shellWord(body.text, secret, missing));
  return args.join(' ');
}

/** `read -r ACCESS_TOKEN < <(curl …)` (bash): the run's token request for the family and environment, its answer's access_token kept. */
export function tokenCommand(source: TokenSource): string {
  const missing: string[] = [];
  const request = { ...source.entry, _token: undefined } as HarEntry;
  const curl = curlOf(request, source.family, missing).replace(/^curl -sS -i /, 'curl -sS ');
  // `read` rather than an assignment: `ACCESS_TOKEN=…` is the shape the redaction of every printed line masks.
  return `read -r ACCESS_TOKEN < <(${curl} | sed -E 's/.*"access_token" *: *"([^"]+)".*/\\1/')`;
}

/** The exchanges of a failed check that show its broken fact: those its failure names, else its last one. */
export function brokenExchanges(t: TestResult, entries: readonly HarEntry[]): HarEntry[] {
  const own = entries.filter((e) => e._check === t.title && e._file === t.file);
  const named = own.filter((e) => t.error?.includes(e._correlationId));
  return (named.length ? named : own).slice(-MAX_EXCHANGES);
}

/** The reproduction of a failed check; undefined when the run recorded none of its exchanges. */
export function reproductionOf(t: TestResult, entries: readonly HarEntry[]): Reproduction | undefined {
  const shown = brokenExchanges(t, entries);
  if (!shown.length) return undefined;
  const sources = tokenSources(entries);
  const notReproduced: string[] = [];
  const variables = new Set<string>();
  let token: string | undefined;
  const curls = shown.map((e) => {
    const source = sourceOf(e, sources);
    const curl = curlOf(e, source?.family, notReproduced);
    if (e._token === 'issued' && source) {
      token ??= tokenCommand(source);
      variables.add(secretVariable(source.family));
    }
    if (source && curl.includes(`$${secretVariable(source.family)}`)) variables.add(secretVariable(source.family));
    return curl;
  });
  if (token === undefined && curls.some((c) => c.includes('$ACCESS_TOKEN')))
    notReproduced.push('the token command: the run issued no token');
  return { ...(token ? { token } : {}), curls, variables: [...variables], notReproduced: [...new Set(notReproduced)] };
}

/** Every failed check of the run with its reproduction. */
export function withReproductions(tests: readonly TestResult[], entries: readonly HarEntry[]): TestResult[] {
  return tests.map((t) => {
    const reproduction = t.status === 'failed' ? reproductionOf(t, entries) : undefined;
    return reproduction ? { ...t, reproduction } : t;
  });
}

/** A reproduction as lines of text, for the terminal, JUnit and the step summary. */
export function reproductionText(r: Reproduction): string[] {
  return [
    ...(r.variables.length ? [`# set ${r.variables.join(', ')} (see .env.example)`] : []),
    ...(r.token ? [r.token] : []),
    ...r.curls,
    ...r.notReproduced.map((m) => `# not sent as the check did: ${m}`),
  ];
}

/** Failed checks the terminal shows the reproduction of; summary.json, JUnit and the report page hold every one. */
const TERMINAL_REPRODUCTIONS = 5;

/** The terminal's section of reproductions: each failed check's title and commands, the first few of them. */
export function reproductionLines(tests: readonly TestResult[], outputDir: string): string[] {
  const failed = tests.filter((t) => t.reproduction);
  if (!failed.length) return [];
  const shown = failed.slice(0, TERMINAL_REPRODUCTIONS);
  return [
    '',
    "Send a failed check's requests again (paste in a shell; the answers of the run are in exchanges.har):",
    ...shown.flatMap((t) => [`  ✘ ${t.title} (${t.file})`, ...reproductionText(t.reproduction as Reproduction).map((l) => `    ${l}`)]),
    ...(failed.length > shown.length ? [`  … and ${failed.length - shown.length} more in ${outputDir}/summary.json`] : []),
  ];
}
