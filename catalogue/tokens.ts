import type { Family } from './operations';

export interface TokenEndpoint {
  readonly family: Family;
  /** Documented method: form-body POST (spec, Authentication 3 and Token endpoint table). */
  readonly method: 'POST';
  /** Path relative to the environment root (not to the family base). */
  readonly path: string;
  readonly contentType: 'application/x-www-form-urlencoded';
  readonly grantType: 'client_credentials';
  /**
   * A method also stated by the spec. The reseller endpoint listing gives GET while the
   * instructions use POST; both stand, POST is documented. The harness probes which the target follows.
   */
  readonly listedMethod?: 'GET';
}

export const tokenEndpoints: Readonly<Record<Family, TokenEndpoint>> = {
  reseller: {
    family: 'reseller',
    method: 'POST',
    path: '/oauth/oauth20/token',
    contentType: 'application/x-www-form-urlencoded',
    grantType: 'client_credentials',
    listedMethod: 'GET',
  },
  vendor: {
    family: 'vendor',
    method: 'POST',
    path: '/oauth/oauth30/token',
    contentType: 'application/x-www-form-urlencoded',
    grantType: 'client_credentials',
  },
};

/** Token lifetime per the spec's guidance: a token expires every 24 hours. */
export const GUIDANCE_TOKEN_LIFETIME_S = 24 * 60 * 60;
/** The figure the spec's sample response carries in expires_in. */
export const SAMPLE_EXPIRES_IN_S = 2_592_000;
