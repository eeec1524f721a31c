/**
 * A silent target (a hung gateway: it accepts connections and never answers) is judged as fast as a
 * failing one. When a request gets no answer within REQUEST_TIMEOUT_MS and the target has answered
 * nothing yet in this run, the target is silent: that check fails with the timeout, and every later
 * request of the run is refused before it is sent, its check blocked with the reason, instead of each
 * waiting for its own timeout. A target that has answered once is never written off by a later timeout.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ApiClient, TargetFailure, type ApiClientOptions, type ApiRequest, type ApiResponse } from '../../clients/http';
import { redact } from '../../clients/redact';
import type { Fetcher } from '../../clients/fetcher';

/** Where the run keeps what it learnt about the target, so every worker (and a restarted one) knows it. */
export interface SilenceFiles {
  /** Exists once the target answered a request of the run. */
  answered: string;
  /** Holds the reason once the target was found silent. */
  silent: string;
}

/** What the run knows of the target's silence: in this process, and in the run folder when there is one. */
export class SilenceWatch {
  private answeredSeen = false;
  private reason: string | undefined;

  constructor(private readonly files?: SilenceFiles) {}

  /** The reason the target was found silent, if it was (never, once it answered this process: no file is read then). */
  silentReason(): string | undefined {
    if (this.answeredSeen) return undefined;
    if (this.reason === undefined && this.files && existsSync(this.files.silent)) this.reason = readFileSync(this.files.silent, 'utf8');
    return this.reason;
  }

  answered(): void {
    if (this.answeredSeen) return;
    this.answeredSeen = true;
    if (this.files && !existsSync(this.files.answered)) writeFileSync(this.files.answered, '');
  }

  /** A failed request: a timeout before any answer of the run makes the target silent. */
  failed(e: unknown): void {
    if (!(e instanceof TargetFailure) || e.kind !== 'timeout') return;
    if (this.answeredSeen || (this.files && existsSync(this.files.answered))) return;
    this.reason = `the target has not answered any request within REQUEST_TIMEOUT_MS: ${redact(e.message).slice(0, 400)}`;
    if (this.files) writeFileSync(this.files.silent, this.reason);
  }
}

/** An ApiClient that refuses every request once the target was found silent (`block` ends the check with the reason). */
export class SilenceAwareApiClient extends ApiClient {
  constructor(
    ctx: Fetcher,
    opts: ApiClientOptions,
    private readonly watch: SilenceWatch,
    private readonly block: (reason: string) => never,
  ) {
    super(ctx, opts);
  }

  override async send(req: ApiRequest): Promise<ApiResponse> {
    const reason = this.watch.silentReason();
    if (reason !== undefined) this.block(`${reason} (${req.method} ${req.path} not sent)`);
    try {
      const res = await super.send(req);
      this.watch.answered();
      return res;
    } catch (e) {
      this.watch.failed(e);
      throw e;
    }
  }
}
