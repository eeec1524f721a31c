/** The harness configuration's shape: the target, its apps and the embedded mock, as `loadConfig` returns them. */
import type { EnvironmentName, Family, IdName, MockApp, VendorOperationSpec } from '../catalogue';
import type { Credentials } from '../clients/token-core';

export type TargetKind = 'mock' | 'sandbox' | 'production' | 'url';

export interface HarnessConfig {
  kind: TargetKind;
  /** {base_url}; for the mock, filled in once it listens. */
  baseUrl: string | undefined;
  /** Printable target name (never contains credentials). */
  targetLabel: string;
  environments: EnvironmentName[];
  families: Family[];
  credentials: Partial<Record<Family, Credentials>>;
  /** A second reseller app, for the per-app independence check. */
  secondReseller: Credentials | undefined;
  extraHeaders: Record<string, string>;
  /** The published IM-* request headers (IM-CorrelationID excepted: fresh per request), by header name. */
  imHeaders: Record<string, string>;
  /** The IM_* variables left unset, whose headers carry the embedded mock's values. */
  imHeaderDefaults: string[];
  vendorOperations: VendorOperationSpec[];
  /** REQUEST_BUDGET: requests the suite may send; Infinity on the embedded mock; undefined: the run's plan (contracts/plan/request-plan.ts). */
  requestBudget: number | undefined;
  /** REQUEST_BUDGET_PARTIAL: a budget below the plan runs the units it covers instead of refusing the run. */
  partialBudget: boolean;
  /** REQUIRE_EVERY_CHECK: checks out of the run's scope count as not judged (exit 99) instead of being listed aside. */
  requireEveryCheck: boolean;
  /**
   * CERTIFY_CONCURRENCY: the most calls a worker sends at once (the run picks fewer from the round trip and the
   * buckets' Remaining) and the most workers against a deployment; 1 sends one call at a time. Default 8; 1 on
   * the embedded mock, whose workers each have their own.
   */
  concurrency: number;
  /** Run limit exhaustion tests (always on the mock). */
  probeLimits: boolean;
  /** PROBE_WRITE_LIMITS: spend the write operations' buckets too, each a write per call (always on the mock). */
  probeWriteLimits: boolean;
  /** Production runs only read-only operations unless writes are allowed too. */
  allowWrites: boolean;
  webhookReceiverUrl: string | undefined;
  /** Secret that signs pushed webhook events (x-hub-signature); the mock's default on the mock. */
  webhookSecret: string | undefined;
  /** POLICY; its file is checked at start-up by `checkConfigFiles`. */
  policyFile: string | undefined;
  /** OPENAPI: the user's OpenAPI document the run validates against; checked at start-up by `checkConfigFiles`. */
  openapiFile: string | undefined;
  /** REPORTS_DIR: where the run's reports go; default `reports`. */
  reportsDir: string;
  /** GITHUB_STEP_SUMMARY, when GITHUB_ACTIONS is on: the step summary file certify appends its Markdown to. */
  githubStepSummary: string | undefined;
  requestTimeoutMs: number;
  maxBodyBytes: number;
  /** Longest wait for a rate-limit reset in a test that is not about limits. */
  max429WaitMs: number;
  /** The embedded mock's configuration; `requests` is MOCK_REQUESTS as given (strict or warn, checked where the mock starts). */
  mock: { windowMs: number; drift: string[]; apps: MockApp[] | undefined; seed: number; requests: string };
  /** Ids of the target's data given by the user (KNOWN_IDS), used before any discovery. */
  knownIds: Partial<Record<IdName, string>>;
}

/** What `npm run load` takes from the environment about the deployment it runs against: read once (deploymentSettingsFrom). */
export interface DeploymentSettings {
  /** BASE_URL: the deployment `--target sandbox` names. */
  baseUrl: string | undefined;
  /** The apps given (RESELLER_ and VENDOR_CLIENT_ID with their secrets): the id search asks as them. */
  credentials: Partial<Record<Family, Credentials>>;
  /** The published IM-* request headers, by header name. */
  imHeaders: Record<string, string>;
  /** WEBHOOK_SECRET, else the embedded mock's rule for the reseller app the run uses. */
  webhookSecret: string;
  /** KNOWN_IDS: ids of the target's data, used before any search. */
  knownIds: Partial<Record<IdName, string>>;
  requestTimeoutMs: number;
  maxBodyBytes: number;
  /** LOAD_SEGMENT: this runner's execution segment when the command line gives none. */
  segment: string | undefined;
}
