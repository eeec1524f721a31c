import { GUIDANCE_TOKEN_LIFETIME_S, tokenEndpoints, environmentRoot, type EnvironmentName, type Family } from '../catalogue';
import { evidenceOf, type ApiResponse } from '../clients/http';
import { registerSecret } from '../clients/redact';
import { test, expect, harnessConfig, label, planned, type Session } from './session/test';
import { mockClockApplies } from './plan/scope';
import { CheckGroup } from './outcomes/check-groups';
import { recordFinding } from './record/finding-recorder';
import { recordEarlyRefusal } from './judge/token-refusals';
import { judges } from './record/fact-declarations';
import { tokenPlace } from '../catalogue/facts';

const cfg = harnessConfig();
const TOKEN_SCHEMA = 'https://harness.local/schemas/token-response.json';

function tokenPath(family: Family, env: EnvironmentName): string {
  return `${environmentRoot[env]}${tokenEndpoints[family].path}`;
}

for (const env of cfg.environments) {
  for (const family of cfg.families) {
    // One test per environment and family, one check per fact (see outcomes/check-groups.ts).
    const group = new CheckGroup<{ session: Session }>();
    const form = () => {
      const c = cfg.credentials[family];
      if (!c) throw new Error(`no ${family} credentials`);
      return { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret };
    };
    const post = (session: { send: (r: never) => Promise<ApiResponse> }, f: Record<string, string>) =>
      session.send({ method: 'POST', path: tokenPath(family, env), form: f } as never);

    group.check(
      `should issue a ${family} token for valid client credentials (${env})`,
      { unit: `token.${family}`, requests: 1, facts: judges(env, tokenPlace(family), 'token.as-documented') },
      async ({ session }) => {
        label(test.info(), `token.${family}`, env, 'token');
        const res = await post(session, form());
        expect(res.status, `Broken fact: the form-body POST returns a token\nEvidence: ${evidenceOf(res)}`).toBe(200);
        expect(res).toBeJsonResponse();
      },
    );

    group.check(
      `should return a ${family} token response with access_token, token_type Bearer and integer expires_in (${env})`,
      { unit: `token.${family}`, requests: 1, facts: judges(env, tokenPlace(family), 'token.as-documented') },
      async ({ session }) => {
        label(test.info(), `token.${family}`, env, 'shape');
        const res = await post(session, form());
        expect(res.status).toBe(200);
        expect(res.json).toMatchSchema(
          TOKEN_SCHEMA,
          'the token response has a non-empty access_token, token_type exactly Bearer and an integer expires_in > 0',
        );
      },
    );

    group.check(
      `should send the rate-limit headers on the ${family} token response (${env})`,
      { unit: `token.${family}`, requests: 1, facts: judges(env, tokenPlace(family), 'token.as-documented') },
      async ({ session }) => {
        label(test.info(), `token.${family}`, env, 'headers');
        const res = await post(session, form());
        expect(res).toHaveRateLimitHeaders({ windowMs: session.target.windowMs });
      },
    );

    group.check(
      `should reject a wrong client secret for the ${family} token (${env})`,
      { unit: `token.${family}`, requests: 1, facts: judges(env, tokenPlace(family), 'token.as-documented') },
      async ({ session }) => {
        label(test.info(), `token.${family}`, env, 'auth');
        const res = await post(session, { ...form(), client_secret: 'wrong-secret-for-certification' });
        expect(res, `Broken fact: a token needs the app's client secret\nExpected: 4xx\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(
          400,
          499,
        );
        let shapeOk = true;
        try {
          expect(res).toBeErrorBody();
        } catch {
          shapeOk = false;
        }
        recordFinding('token.rejection-shape', shapeOk ? 'error-body' : 'other-body', `status ${res.status}; ${evidenceOf(res)}`, {
          family,
          environment: env,
          policyFile: cfg.policyFile,
        });
      },
    );

    for (const missing of ['client_id', 'client_secret', 'grant_type']) {
      group.check(
        `should reject a ${family} token request without ${missing} (${env})`,
        { unit: `token.${family}`, requests: 1, facts: judges(env, tokenPlace(family), 'token.as-documented') },
        async ({ session }) => {
          label(test.info(), `token.${family}`, env, 'rejections');
          const f: Record<string, string> = form();
          delete f[missing];
          const res = await post(session, f);
          expect(res, `Broken fact: ${missing} is a required form field\nExpected: 4xx\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(
            400,
            499,
          );
        },
      );
    }

    group.check(
      `should reject a ${family} token request whose grant_type is not client_credentials (${env})`,
      { unit: `token.${family}`, requests: 1, facts: judges(env, tokenPlace(family), 'token.as-documented') },
      async ({ session }) => {
        label(test.info(), `token.${family}`, env, 'rejections');
        const res = await post(session, { ...form(), grant_type: 'password' });
        expect(res, `Broken fact: grant_type must be client_credentials\nExpected: 4xx\nReceived: ${evidenceOf(res)}`).toHaveStatusIn(
          400,
          499,
        );
      },
    );

    group.check(
      `should reject a ${family} token request with a JSON body instead of a form (${env})`,
      { unit: `token.${family}`, requests: 1, facts: judges(env, tokenPlace(family), 'token.as-documented') },
      async ({ session }) => {
        label(test.info(), `token.${family}`, env, 'rejections');
        const res = await session.send({ method: 'POST', path: tokenPath(family, env), json: form() });
        expect(
          res,
          `Broken fact: the token request Content-Type is application/x-www-form-urlencoded\nExpected: 4xx for a JSON body\nReceived: ${evidenceOf(res)}`,
        ).toHaveStatusIn(400, 499);
      },
    );

    group.check(
      `should record whether the ${family} token endpoint also answers GET with query parameters (${env})`,
      { unit: `token.${family}`, requests: 1, facts: judges(env, tokenPlace(family), 'token.as-documented') },
      async ({ session }) => {
        label(test.info(), `token.${family}`, env, 'finding');
        const res = await session.send({ method: 'GET', path: tokenPath(family, env), query: form() });
        const accepted =
          res.status >= 200 && res.status < 300 && typeof (res.json as { access_token?: unknown })?.access_token === 'string';
        recordFinding('token.method', accepted ? 'get-accepted' : 'post-only', `GET with query parameters → ${evidenceOf(res)}`, {
          family,
          environment: env,
          policyFile: cfg.policyFile,
        });
      },
    );

    group.check(
      `should record the ${family} token's expires_in against the 24 h guidance (${env})`,
      { unit: `token.${family}`, requests: 1, facts: judges(env, tokenPlace(family), 'token.as-documented') },
      async ({ session }) => {
        label(test.info(), `token.${family}`, env, 'finding');
        const res = await post(session, form());
        expect(res.status).toBe(200);
        const raw = (res.json as { expires_in?: unknown } | undefined)?.expires_in;
        const expiresIn = Number(raw);
        // An absent or non-numeric expires_in is no lifetime at all: never "within" or "beyond" 24 h.
        expect(
          typeof raw === 'number' || typeof raw === 'string' ? Number.isFinite(expiresIn) && expiresIn > 0 : false,
          `Broken fact: the token response carries expires_in, a number of seconds\nReceived: expires_in ${JSON.stringify(raw) ?? 'absent'}; ${evidenceOf(res)}`,
        ).toBe(true);
        recordFinding(
          'token.lifetime',
          expiresIn <= GUIDANCE_TOKEN_LIFETIME_S ? 'within-24h' : 'beyond-24h',
          `expires_in=${expiresIn} s (${(expiresIn / 3600).toFixed(1)} h) vs guidance ${GUIDANCE_TOKEN_LIFETIME_S} s (24 h); the client refreshes at the earlier`,
          { family, environment: env, policyFile: cfg.policyFile },
        );
      },
    );

    test(
      `should answer the ${family} token requests as documented (${env})`,
      group.details({ tag: ['@tokens', `@${family}`] }),
      async ({ session }) => group.run({ session }, session.pace),
    );
  }
}

/** How long the early-refusal check lets pass on the target's clock: well inside both lifetimes. */
const ONE_HOUR_MS = 3_600_000;

/** A check on the embedded mock's clock, with the requests it sends; not applicable to another target. */
const onClock = (requests: number, why: string) =>
  planned({ unit: `token.${cfg.families[0]}`, requests, notApplicable: mockClockApplies(cfg, why) });

/** The run's first family and environment and a GET of that family, on the mock's clock. */
function onMockClock(session: Session, aspect: string) {
  const family: Family = cfg.families[0] as Family;
  const env = cfg.environments[0] as EnvironmentName;
  label(test.info(), `token.${family}`, env, aspect);
  if (!session.target.control) throw new Error('the embedded mock has no control API');
  const op = session.target.operations.find((o) => o.family === family && o.method === 'GET') ?? session.target.operations[0];
  if (!op) throw new Error('no operation to call');
  return { family, env, op, control: session.target.control };
}

test.describe('token lifetime on the embedded mock', { tag: ['@tokens', '@clock'] }, () => {
  // A token, a call, a later call; refused early: a new token and a call.
  test(
    'should record whether the target keeps a token until the earlier of expires_in and 24 h',
    onClock(5, 'let an hour pass'),
    async ({ session }) => {
      // Elsewhere a refusal the run meets is recorded where it happens (the suite's re-fetch after a 401).
      const { family, env, op, control } = onMockClock(session, 'finding');
      let offsetMs = 0;
      const client = session.tokenClient(cfg.credentials, () => Date.now() + offsetMs);
      const issued = await client.issued(family, env);
      const waitMs = Math.min(ONE_HOUR_MS, (Math.min(issued.expiresInS, GUIDANCE_TOKEN_LIFETIME_S) * 1000) / 2);
      const scope = { family, environment: env, policyFile: cfg.policyFile };
      try {
        const first = await session.call(op, env, { token: issued.accessToken });
        expect(first.status, `Broken fact: a new token is accepted\nReceived: ${evidenceOf(first)}`).toBeLessThan(300);
        await control('POST', '/clock', { advanceMs: waitMs });
        offsetMs = waitMs;
        const later = await session.call(op, env, { token: issued.accessToken });
        if (later.status !== 401 && later.status !== 403) {
          expect(later.status, `Broken fact: a token is accepted within its lifetime\nReceived: ${evidenceOf(later)}`).toBeLessThan(300);
          recordFinding(
            'token.refused-early',
            'kept',
            `token issued at ${new Date(issued.obtainedAtMs).toISOString()} accepted ${waitMs / 1000} s later (expires_in ${issued.expiresInS} s); ${evidenceOf(later)}`,
            scope,
          );
          return;
        }
        // Refused inside both lifetimes: a client must be ready for a new token at any time, so it gets one.
        const early = client.invalidate(family, env, issued.accessToken);
        const again = await session.call(op, env, { token: await client.token(family, env) });
        expect(again.status, `Broken fact: a client that requests a new token can go on\nReceived: ${evidenceOf(again)}`).toBeLessThan(300);
        if (!early)
          throw new Error(`a token refused ${waitMs} ms after it was issued must count as early (expires_in ${issued.expiresInS} s)`);
        recordEarlyRefusal(early, later, again, scope);
      } finally {
        await control('POST', '/clock', { system: true });
      }
    },
  );

  // Two tokens and a call with the expired one.
  test(
    'should refresh the token at the earlier of expires_in and 24 h and refuse the expired one',
    onClock(3, 'compress 24 hours'),
    async ({ session }) => {
      const { family, env, op, control } = onMockClock(session, 'refresh');
      const cfgNow = (await control('GET', '/config')) as { nowMs: number };
      let now = cfgNow.nowMs;
      const client = session.tokenClient(cfg.credentials, () => now);
      const first = await client.issued(family, env);
      registerSecret(first.accessToken);
      // expires_in (2592000 on the mock) exceeds 24 h: the refresh is due before 24 h.
      expect(first.refreshAtMs - first.obtainedAtMs).toBeLessThanOrEqual(GUIDANCE_TOKEN_LIFETIME_S * 1000);
      now += GUIDANCE_TOKEN_LIFETIME_S * 1000 - 120_000;
      expect((await client.issued(family, env)).accessToken, 'the cached token is reused before its refresh time').toBe(first.accessToken);
      now += 61_000;
      const second = await client.issued(family, env);
      expect(second.accessToken, 'the client replaced its token before the 24 h guidance').not.toBe(first.accessToken);
      expect(client.fetches.get(`${family}/${env}`)).toBe(2);
      // Move the target's clock past 24 h: the first token must be refused. The clock goes back after.
      await control('POST', '/clock', { advanceMs: GUIDANCE_TOKEN_LIFETIME_S * 1000 + 1000 });
      const expired = await session.call(op, env, { token: first.accessToken }).finally(() => control('POST', '/clock', { system: true }));
      expect(
        expired,
        `Broken fact: a token expires after 24 hours and must be replaced\nExpected: 401/403 for a token issued 24 h ago\nReceived: ${evidenceOf(expired)}`,
      ).toHaveStatusIn(401, 403);
    },
  );
});
