/** Renewals and deals as published answers: summaries and details. */
import { round2 } from '../../../fixtures/lines';
import type { Deal, Renewal } from '../../../fixtures/world-types';
import { ADDRESS, link } from './view-parts';

export const renewalAndDealViews = {
  renewalSummary: (r: Renewal) => ({
    renewalId: r.renewalId,
    customerOrderNumber: r.customerOrderNumber,
    referenceNumber: `REN-${r.renewalId}`,
    endUser: r.endUser,
    vendor: r.vendor,
    expirationDate: r.expirationDate,
    renewalValue: r.total,
    status: r.status,
    links: [link('renewal details', `/resellers/v6/renewals/${r.renewalId}`)],
  }),
  renewalDetails: (r: Renewal) => ({
    renewalId: String(r.renewalId),
    ingramOrderNumber: r.ingramOrderNumber,
    expirationDate: r.expirationDate,
    customerOrderNumber: r.customerOrderNumber,
    renewalValue: String(r.total),
    endUser: r.endUser,
    vendor: r.vendor,
    status: r.status,
    endUserInfo: { ...ADDRESS, companyName: r.endUser },
    products: r.lines.map((l) => ({
      ingramLineNumber: String(l.lineNumber).padStart(3, '0'),
      productDescription: l.description,
      vendorPartNumber: l.vendorPartNumber,
      ingramPartNumber: l.ingramPartNumber,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
    })),
  }),
  dealSummary: (d: Deal) => ({
    dealId: d.dealId,
    version: d.version,
    endUser: d.endUser,
    vendor: d.vendor,
    dealExpiryDate: d.dealExpiryDate,
    links: link('deal details', `/resellers/v6/deals/${d.dealId}`),
  }),
  dealDetails: (d: Deal) => ({
    dealId: d.dealId,
    version: d.version,
    endUser: d.endUser,
    extendedMsrp: round2(d.products.reduce((s, p) => s + p.msrp * p.approvedQuantity, 0)),
    vendor: d.vendor,
    dealReceivedOn: '2025-12-01',
    dealExpiryDate: d.dealExpiryDate,
    priceProtectionEndDate: d.dealExpiryDate,
    currencyCode: d.currencyCode,
    products: d.products.map((p) => ({
      ingramPartNumber: p.ingramPartNumber,
      vendorPartNumber: p.vendorPartNumber,
      msrp: p.msrp,
      standardPrice: p.standardPrice,
      approvedQuantity: p.approvedQuantity,
      remainingQuantity: p.approvedQuantity,
      expirationDate: d.dealExpiryDate,
    })),
  }),
};
