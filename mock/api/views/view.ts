/** Views: the world's records projected onto the published answer shapes, one group per kind of record. */
import { invoiceAndReturnViews } from './invoice-and-return-views';
import { orderViews } from './order-views';
import { productViews } from './product-views';
import { renewalAndDealViews } from './renewal-and-deal-views';

export const view = { ...productViews, ...orderViews, ...invoiceAndReturnViews, ...renewalAndDealViews };
