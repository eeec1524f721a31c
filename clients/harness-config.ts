/** The harness configuration's shape: the target, its apps and the embedded mock, as `loadConfig` returns them. */
import type { EnvironmentName, Family, IdName, MockApp, VendorOperationSpec } from '../catalogue';
import type { Credentials } from './token-core';

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
  vendorOperations: VendorOperationSpec[];
  /** Requests the suite may send; Infinity on the embedded mock. */
  requestBudget: number;
  /** Run limit exhaustion tests (always on the mock). */
  probeLimits: boolean;
  /** Production runs only read-only operations unless writes are allowed too. */
  allowWrites: boolean;
  webhookReceiverUrl: string | undefined;
  /** Secret that signs pushed webhook events (x-hub-signature); the mock's default on the mock. */
  webhookSecret: string | undefined;
  /** POLICY; its file is checked at start-up by `checkConfigFiles`. */
  policyFile: string | undefined;
  requestTimeoutMs: number;
  maxBodyBytes: number;
  /** Longest wait for a rate-limit reset in a test that is not about limits. */
  max429WaitMs: number;
  /** The embedded mock's configuration; `requests` is MOCK_REQUESTS as given (strict or warn, checked where the mock starts). */
  mock: { windowMs: number; drift: string[]; apps: MockApp[] | undefined; seed: number; requests: string };
  /** Ids of the target's data given by the user (KNOWN_IDS), used before any discovery. */
  knownIds: Partial<Record<IdName, string>>;
}
