/**
 * The drift layer over the mock: the modes switched on, applied where a layer may act
 * (mock/ground/mock-layer.ts). Answer transforms run in one onSend hook, after the mock wrote its rate-limit
 * headers; the hook is registered only when a mode is on at start or may be switched on later (the
 * control API), so a conforming mock pays nothing for drift.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../ground/clock';
import type { LeniencyId, MockLayer, SpecChoices } from '../ground/mock-layer';
import { Answer, type AnswerTransform } from './answer';
import { AUTH_DRIFT } from './auth-drift';
import { CANCEL_IGNORED_DRIFT } from './cancel-ignored-drift';
import { FILTER_IGNORED_DRIFT } from './filter-ignored-drift';
import { CUSTOMER_ORDER_FILTER_IGNORED_DRIFT } from './customer-order-filter-ignored-drift';
import { LIST_FILTER_IGNORED_DRIFT } from './list-filter-ignored-drift';
import { FAMILY_RESET_UNIT_DRIFT } from './family-reset-unit-drift';
import { FINDING_DRIFT } from './findings-drift';
import { HEADER_DRIFT } from './headers-drift';
import { INPUT_DRIFT } from './inputs-drift';
import { parseDrift, type DriftEffect, type DriftId } from './index';
import { LIMIT_DRIFT } from './limits-drift';
import { MODIFY_IGNORED_DRIFT } from './modify-ignored-drift';
import { OTHER_KEY_DRIFT } from './other-key-drift';
import { RETURN_UNKNOWN_DRIFT } from './return-unknown-drift';
import { ROUTING_DRIFT } from './routing-drift';
import { SANDBOX_FROZEN_DRIFT } from './sandbox-frozen-drift';
import { SEARCH_NOT_SERVED_DRIFT } from './search-not-served-drift';
import { SHAPE_DRIFT } from './shapes-drift';
import { TOKEN_DRIFT } from './tokens-drift';
import { TOO_MANY_DRIFT } from './too-many-drift';
import { UNDOCUMENTED_STATUS_DRIFT } from './undocumented-status-drift';
import { WEBHOOK_DRIFT } from './webhooks-drift';
import { BUCKET_PER_TOKEN_DRIFT } from './bucket-per-token-drift';
import { BUCKET_PER_PATH_DRIFT } from './bucket-per-path-drift';
import { BUCKET_PER_PREFIX_DRIFT } from './bucket-per-prefix-drift';
import { SANDBOX_429_DRIFT } from './sandbox-429-drift';
import { VENDOR_429_DRIFT } from './vendor-429-drift';
import { POST_REFUSES_EARLY_DRIFT } from './post-refuses-early-drift';
import { PAGE_SIZE_IGNORED_DRIFT } from './page-size-ignored-drift';
import { PAGE_REPEATED_DRIFT } from './page-repeated-drift';
import { RECORDS_FOUND_WRONG_DRIFT } from './records-found-wrong-drift';

/** Every mode's effect: the compiler asks for the entry of a new mode. */
export const DRIFT_EFFECTS: Readonly<Record<DriftId, DriftEffect>> = {
  ...TOKEN_DRIFT,
  ...HEADER_DRIFT,
  ...SANDBOX_FROZEN_DRIFT,
  ...TOO_MANY_DRIFT,
  ...LIMIT_DRIFT,
  ...AUTH_DRIFT,
  ...ROUTING_DRIFT,
  ...WEBHOOK_DRIFT,
  ...SHAPE_DRIFT,
  ...FINDING_DRIFT,
  ...INPUT_DRIFT,
  ...OTHER_KEY_DRIFT,
  ...FILTER_IGNORED_DRIFT,
  ...CUSTOMER_ORDER_FILTER_IGNORED_DRIFT,
  ...LIST_FILTER_IGNORED_DRIFT,
  ...FAMILY_RESET_UNIT_DRIFT,
  ...UNDOCUMENTED_STATUS_DRIFT,
  ...CANCEL_IGNORED_DRIFT,
  ...MODIFY_IGNORED_DRIFT,
  ...RETURN_UNKNOWN_DRIFT,
  ...SEARCH_NOT_SERVED_DRIFT,
  ...BUCKET_PER_TOKEN_DRIFT,
  ...BUCKET_PER_PATH_DRIFT,
  ...BUCKET_PER_PREFIX_DRIFT,
  ...SANDBOX_429_DRIFT,
  ...VENDOR_429_DRIFT,
  ...POST_REFUSES_EARLY_DRIFT,
  ...PAGE_SIZE_IGNORED_DRIFT,
  ...PAGE_REPEATED_DRIFT,
  ...RECORDS_FOUND_WRONG_DRIFT,
};

export class DriftLayer implements MockLayer {
  private modes: readonly DriftId[] = [];
  private lenient: ReadonlySet<LeniencyId> = new Set();
  private transforms: readonly AnswerTransform[] = [];
  private choices: Partial<SpecChoices> | null = null;

  /**
   * @param ids the modes on at start
   * @param switchable whether the modes may be switched at run time (the control API)
   */
  constructor(
    ids: readonly string[],
    private readonly switchable: boolean,
  ) {
    this.switchTo(ids);
  }

  /** Without a mode on, a size check and no lookup: the hot path asks several per request. */
  readonly leniency = (id: LeniencyId): boolean => this.lenient.size !== 0 && this.lenient.has(id);

  applyChoices<T extends SpecChoices>(own: T): T {
    return this.choices === null ? own : { ...own, ...this.choices };
  }

  active(): readonly string[] {
    return this.modes;
  }

  switchTo(ids: readonly string[]): void {
    const modes = parseDrift(ids);
    const effects = modes.map((id) => DRIFT_EFFECTS[id]);
    const choices = effects.flatMap((e) => ('choice' in e ? [e.choice] : []));
    this.modes = modes;
    this.lenient = new Set(effects.flatMap((e) => ('leniency' in e ? [e.leniency] : [])));
    this.transforms = effects.flatMap((e) => ('answer' in e ? [e.answer] : []));
    this.choices = choices.length ? Object.assign({}, ...choices) : null;
  }

  register(app: FastifyInstance, clock: Clock): void {
    if (!this.switchable && this.transforms.length === 0) return;
    app.addHook('onSend', (req, reply, payload, done) => {
      // The control API (no rate-limit side) is not the mock's behaviour: never rewritten.
      if (this.transforms.length === 0 || req.rateRoute?.none) return done(null, payload);
      const answer = new Answer(req, reply, payload, clock.now());
      for (const transform of this.transforms) transform(answer);
      done(null, answer.payload());
    });
  }
}
