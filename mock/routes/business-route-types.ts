/**
 * What a business route holds, resolved once when it is registered (business-route.ts), and what its
 * request checks answer (request-checks.ts): the types its steps share, apart from the steps themselves.
 */
import type { FastifyRequest } from 'fastify';
import type { EnvironmentName, Operation, QueryParam } from '../../catalogue';
import type { MockContext } from '../context/context';
import type { DocumentConflict } from '../checks/document-conflicts';
import type { ErrorBody } from '../ground/errors';
import type { Handler } from '../api/handlers/handler';
import type { HeaderRules } from '../checks/header-rules';
import type { QueryRules } from '../checks/query-rules';
import type { ResponseBodyHook } from '../context/mock-options';
import type { RateRoute } from '../limits/rate-limit';
import type { RequestPart } from '../checks/request-violations';

/** What every business route of an app shares. */
export interface BusinessRouteBase {
  ctx: MockContext;
  /**
   * Requests breaking a document constraint are served and their violations noted (`requests: 'warn'`),
   * webhook events included: no document says an invalid event is refused.
   */
  warnRequests: boolean;
  /** Only the published document's forms accepted (the setting in force). */
  strictDocument: () => boolean;
  reportConflict: (message: string) => void;
  reportViolation: (line: string) => void;
  responseBody: ResponseBodyHook | undefined;
}

/** One operation's route in one environment: what its hooks and handler read. */
export interface BusinessRoute extends BusinessRouteBase {
  env: EnvironmentName;
  op: Operation;
  /** The operation's handler (null: a vendor operation, answered generically). */
  handler: Handler | null;
  headerRules: HeaderRules;
  /** The document's constraints on query values (null: none). */
  queryRules: QueryRules | null;
  /** The document's constraints on path parameter values, by the catalogue's names (null: none). */
  pathRules: QueryRules | null;
  conflict: DocumentConflict | undefined;
  /** The operation's query parameters with those the distributor's client cannot send optional. */
  lenientQuery: { queryParams: readonly QueryParam[] };
  rateRoute: RateRoute;
  checks: readonly RequestCheck[];
  /** The limiter key of a caller (the app, else the address) of a request on this route. */
  limiterKey: (who: string, req: FastifyRequest) => string;
}

/** Why a request is not served as it is. */
export interface RequestRefusal {
  status: number;
  body: ErrorBody;
  /** Where the broken document constraint sits (servable in warn mode); absent: refused in either mode. */
  part?: RequestPart;
}

/** One step of the preHandler: a refusal, or null when the request passes it. */
export type RequestCheck = (req: FastifyRequest, route: BusinessRoute) => RequestRefusal | null;
