/**
 * One handler per catalogued reseller operation: the compiler lists what a new operation still
 * needs. Each gets the validated request and the mock's state, and returns the answer or a coded
 * error. Limits, authentication, required headers and body schemas ran before (business-route.ts, request-checks.ts).
 */ import type { OperationId } from '../../../catalogue';
import { catalogHandlers } from './catalog-handlers';
import { ok, type Handler } from './handler';
import { invoiceRenewalDealReturnHandlers } from './invoice-renewal-deal-return-handlers';
import { orderHandlers } from './order-handlers';
import { quoteHandlers } from './quote-handlers';

export const HANDLERS: Record<OperationId, Handler> = {
  ...catalogHandlers,
  ...orderHandlers,
  ...quoteHandlers,
  ...invoiceRenewalDealReturnHandlers,
  'webhooks.orderStatus': ({ body, receiveEvent }) => (receiveEvent(body), ok({})),
  'webhooks.availabilityUpdate': ({ body, receiveEvent }) => (receiveEvent(body), ok({})),
};
