/**
 * The mock's options (`buildMockApp`, `startMock`), their defaults, and what they resolve to: the
 * settings the control API may change, and the layer over the conforming mock. The layer is handed in
 * from outside (the entry points that assemble the app build the drift layer of mock/drift/): the mock's
 * core knows only its interface (mock/ground/mock-layer.ts).
 */
import type { LatencyOptions } from '../latency/latency';
import type { RequestMode } from '../checks/request-violations';
import { DEFAULT_WINDOW_MS, GUIDANCE_TOKEN_LIFETIME_S, SAMPLE_EXPIRES_IN_S, type VendorOperationSpec } from '../../catalogue';
import { DEFAULT_SEED } from '../../fixtures/build-world';
import type { Clock } from '../ground/clock';
import type { MockApp } from '../../catalogue/apps';
import type { MockSettings } from './context';
import { NO_LAYER, type MockLayer } from '../ground/mock-layer';
import type { Limiter } from '../limits/limiter';
import type { LimiterSetOptions } from '../limits/limiter-set';
import type { PerOperation } from '../limits/per-operation-specs';
import type { HeaderStyle } from '../limits/decision-headers';

export type ResponseBodyHook = (
  operationId: string,
  ctx: { params: Record<string, string>; query: Record<string, string>; body: unknown },
) => unknown | undefined;

export interface MockOptions {
  /** Listening port for startMock; 0 (default) picks a free one. */
  port?: number;
  /** Rate-limit fixed window in ms. Default 60000 (the spec's minute); at least 200. */
  windowMs?: number;
  /** Faker seed of the fixtures and of the added latency. Default DEFAULT_SEED (1). */
  seed?: number;
  /** Apps that may obtain tokens. Default DEFAULT_APPS. */
  apps?: readonly MockApp[];
  /** Per-operation limit overrides by operation id; key `token` for the token endpoints. */
  limits?: Readonly<Record<string, number>>;
  /** X-RateLimit-Reset as the epoch second of the window end (default) or seconds until it. */
  resetUnit?: 'epoch' | 'seconds';
  /**
   * Token request by GET with query parameters (how the distributor's own clients ask): 'accept'
   * (default) or 'reject' with 405 (the seed's documented way is the form POST).
   */
  tokenGet?: 'reject' | 'accept';
  /** expires_in reported in token responses. Default 2592000 (the spec's sample). */
  expiresInS?: number;
  /** Real token validity in ms. Default 24 h (the spec's guidance). */
  tokenValidityMs?: number;
  /** Clock of token expiry and rate-limit windows. Default the system clock. */
  clock?: Clock;
  /** The limiter (a decision per key and limit). Default a fixed window of `windowMs` on the clock. */
  limiter?: Limiter;
  /**
   * Without `limiter`: the rate-limit algorithms on the mock's clock (fixed, sliding-log,
   * sliding-counter, token-bucket, leaky-bucket), by default and per operation id, and whether a
   * refused call consumes quota. Default a fixed window for every operation.
   */
  algorithms?: LimiterSetOptions;
  /**
   * Rate-limit headers: 'x-ratelimit' (default), 'ietf' (RateLimit, RateLimit-Policy, Retry-After) or 'none',
   * for every operation or per operation (a gateway in front of some routes only).
   */
  headers?: HeaderStyle | PerOperation<HeaderStyle>;
  /** Status of a refused call (default 429); another one comes with a plain HTML body, as from nginx's limit_req (503). */
  refusalStatus?: number;
  /** Serve the /__mock control API. Default false. */
  control?: boolean;
  /**
   * The layer over the conforming mock: its drift modes (`new DriftLayer(ids, switchable)`, mock/drift/), which
   * the control API may switch when the layer allows it. Default none (NO_LAYER): the conforming mock.
   */
  layer?: MockLayer;
  /** Vendor operations served under /vendors/v1. Default the catalogue's list. */
  vendorOperations?: readonly VendorOperationSpec[];
  /** Largest accepted request body in bytes (413 beyond). Default 1 MiB. */
  bodyLimitBytes?: number;
  /** Response bodies from another source (an OpenAPI document); undefined falls back to fixtures. */
  responseBody?: ResponseBodyHook;
  /** Fastify request logging. Default false (the benchmark measures the hot path). */
  logger?: boolean;
  /**
   * Follow the published document alone where the distributor's generated client disagrees with it
   * (mock/checks/document-conflicts.ts). Default false: both forms accepted, each client form reported.
   */
  strictDocument?: boolean;
  /** Told of every client form accepted against the document. Default the Fastify logger (warn). */
  onDocumentConflict?: (message: string) => void;
  /** Let webhook pushes go to non-loopback targets. Default false: loopback only. */
  allowRemoteWebhookTargets?: boolean;
  /**
   * A request that breaks a document constraint (header, query parameter, body schema): 'strict' (default)
   * refuses it with 400; 'warn' serves it and reports each violation (mock/checks/request-violations.ts).
   */
  requests?: RequestMode;
  /** An added latency per operation id (a fixed delay and a jitter; latency.ts). Default none. */
  latency?: LatencyOptions;
  /** Told one line per violation served in 'warn' mode. Default the Fastify logger (warn; silent unless `logger`); `npm run mock` prints them. */
  onRequestViolation?: (line: string) => void;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const MIN_WINDOW_MS = 200;

/** The settings of a mock and the layer over it. */
export function resolveOptions(opts: MockOptions): { settings: MockSettings; layer: MockLayer } {
  const windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
  if (!Number.isFinite(windowMs) || windowMs < MIN_WINDOW_MS) {
    throw new Error(`windowMs must be a number >= ${MIN_WINDOW_MS} ms, received ${String(opts.windowMs)}`);
  }
  const settings: MockSettings = {
    windowMs,
    seed: opts.seed ?? DEFAULT_SEED,
    resetUnit: opts.resetUnit ?? 'epoch',
    tokenGet: opts.tokenGet ?? 'accept',
    expiresInS: opts.expiresInS ?? SAMPLE_EXPIRES_IN_S,
    tokenValidityMs: opts.tokenValidityMs ?? GUIDANCE_TOKEN_LIFETIME_S * 1000,
    strictDocument: opts.strictDocument === true,
    limits: { ...(opts.limits ?? {}) },
  };
  return { settings, layer: opts.layer ?? NO_LAYER };
}
