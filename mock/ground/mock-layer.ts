/**
 * What a layer over the conforming mock may change, and the only places it may change it:
 *
 * - a leniency: the mock accepts, at one of its decision points, something the spec says it refuses
 *   (the decision point asks `leniency(id)`, named for what it would then allow);
 * - a spec choice: a setting of the mock the spec leaves open, switched to its other reading;
 * - its answers: the layer registers its own hooks (status, headers, body rewritten after the mock
 *   answered).
 *
 * With nothing switched on, a layer allows no leniency, keeps the mock's settings and adds no hook
 * (unless its switches may change at run time).
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock';

/** The decision points where the mock can be told to accept what it would refuse. */
export const LENIENCIES = [
  /** A business call without a bearer token. */
  'call-without-token',
  /** A business call with a token never issued. */
  'unknown-token',
  /** A business call with an expired token. */
  'expired-token',
  /** A business call with a token of the other API family. */
  'other-family-token',
  /** A token request with a client secret that is not the app's. */
  'wrong-client-secret',
  /** A token request with a JSON body instead of a form. */
  'json-token-request',
  /** A business call missing a required IM-* header. */
  'missing-required-header',
  /** A header value beyond the published constraints (maxLength). */
  'header-beyond-constraints',
  /** A query parameter or JSON body the published constraints refuse (a value beyond them, a required one missing). */
  'input-beyond-constraints',
  /** A webhook event that does not match its published schema. */
  'invalid-webhook-event',
  /** A webhook event whose x-hub-signature is wrong. */
  'wrong-webhook-signature',
  /** One call more than the advertised limit in a window. */
  'call-beyond-limit',
  /** Refused calls for a while after the advertised reset. */
  'refill-after-reset',
  /** One counter for all the operations of an app. */
  'counter-per-app',
  /** One counter for all the apps calling an operation. */
  'counter-per-operation',
  /** One counter per access token, not per app: a new token of the app starts a fresh count. */
  'counter-per-token',
  /** One counter per request path: an operation's calls for two ids counted apart. */
  'counter-per-path',
  /** One counter per resource path prefix, whatever the version: search and details of a resource counted together. */
  'counter-per-path-prefix',
  /** 61 GET calls per minute where the spec says 60 (operations without a configured limit). */
  'sixty-one-get-calls',
] as const;
export type LeniencyId = (typeof LENIENCIES)[number];

/** Asked at a decision point: does the mock accept what the spec says it refuses there? */
export type Leniency = (id: LeniencyId) => boolean;

/** Settings where the spec allows two readings (a conflict between its sources, or silence): the mock's spec choices. */
export interface SpecChoices {
  /** X-RateLimit-Reset as the epoch second of the window end or as seconds until it. */
  resetUnit: 'epoch' | 'seconds';
  /** A token request by GET with query parameters accepted or refused (405). */
  tokenGet: 'reject' | 'accept';
  /** expires_in reported in token responses. */
  expiresInS: number;
  /** Only the published document's forms accepted where the distributor's client disagrees with it. */
  strictDocument: boolean;
}

export interface MockLayer {
  readonly leniency: Leniency;
  /** The settings in force: the mock's own, or with the layer's spec choices over them. */
  applyChoices<T extends SpecChoices>(own: T): T;
  /** Registers the layer's hooks on the app (after the mock's own). */
  register(app: FastifyInstance, clock: Clock): void;
  /** The layer's switches in force (for the control API). */
  active(): readonly string[];
  /** Switches the layer to these ids at run time; throws, naming the known ids, on an unknown one. */
  switchTo(ids: readonly string[]): void;
}

/**
 * No layer: the conforming mock (the default of MockOptions.layer). It allows no leniency, keeps the mock's
 * settings, adds no hook and has no switch to turn on.
 */
export const NO_LAYER: MockLayer = {
  leniency: () => false,
  applyChoices: (own) => own,
  register: () => undefined,
  active: () => [],
  switchTo(ids) {
    if (ids.length === 0) return;
    throw new Error(
      `expected no drift mode: this mock was built without a layer over it (MockOptions.layer, e.g. new DriftLayer(ids, true) from mock/drift/), received ${ids.join(', ')}`,
    );
  },
};
