/** The catalogue's records as published answers: price and availability, product summaries and details, vendor-required information. */
import type { Product } from '../../../fixtures/world-types';
import { link } from './view-parts';

export const productViews = {
  priceAndAvailability(
    p: Product | undefined,
    asked: Record<string, unknown>,
    index: number,
    o: { availability: boolean; pricing: boolean },
  ) {
    if (!p) {
      return {
        index,
        productStatusCode: 'E',
        productStatusMessage: 'Invalid part number',
        ingramPartNumber: String(asked.ingramPartNumber ?? ''),
        vendorPartNumber: String(asked.vendorPartNumber ?? ''),
      };
    }
    return {
      index,
      productStatusCode: 'S',
      productStatusMessage: 'Product found',
      ingramPartNumber: p.ingramPartNumber,
      vendorPartNumber: p.vendorPartNumber,
      upc: p.upc,
      partNumberType: 'INGRAM',
      vendorNumber: p.vendorNumber,
      vendorName: p.vendorName,
      description: p.description,
      productClass: 'A',
      uom: 'EA',
      productStatus: 'Active',
      acceptBackOrder: true,
      productAuthorized: true,
      returnableProduct: true,
      endUserInfoRequired: false,
      ...(o.availability
        ? {
            availability: {
              available: p.totalAvailability > 0,
              totalAvailability: p.totalAvailability,
              availabilityByWarehouse: p.warehouses.map((w) => ({ ...w, quantityBackordered: 0, quantityOnOrder: 0 })),
            },
          }
        : {}),
      ...(o.pricing
        ? {
            pricing: {
              currencyCode: p.currencyCode,
              retailPrice: p.retailPrice,
              mapPrice: p.retailPrice,
              customerPrice: p.customerPrice,
              specialBidPricingAvailable: false,
              webDiscountsAvailable: false,
            },
          }
        : {}),
      bundlePartIndicator: false,
    };
  },
  productSummary: (p: Product) => ({
    description: p.description,
    category: p.category,
    subCategory: p.subCategory,
    productType: p.productType,
    ingramPartNumber: p.ingramPartNumber,
    vendorPartNumber: p.vendorPartNumber,
    upcCode: p.upc,
    vendorName: p.vendorName,
    endUserRequired: 'False',
    hasDiscounts: 'False',
    type: p.type,
    discontinued: 'False',
    newProduct: 'False',
    directShip: 'False',
    hasWarranty: 'False',
    authorizedToPurchase: 'True',
    links: [link('product details', `/resellers/v6/catalog/details/${p.ingramPartNumber}`)],
  }),
  productDetails: (p: Product) => ({
    ingramPartNumber: p.ingramPartNumber,
    vendorPartNumber: p.vendorPartNumber,
    productAuthorized: 'True',
    description: p.description,
    upc: p.upc,
    productCategory: p.category,
    productSubcategory: p.subCategory,
    vendorName: p.vendorName,
    vendorNumber: p.vendorNumber,
    productStatusCode: 'A',
    productClass: 'A',
    indicators: {
      hasWarranty: false,
      isNewProduct: false,
      isDirectship: false,
      isDownloadable: p.type === 'IM::digital',
      isDigitalType: p.type === 'IM::digital',
      isDiscontinuedProduct: false,
      isReturnableProduct: true,
    },
    warrantyInformation: [],
    additionalInformation: { isBulkFreight: false, height: '4', width: '10', length: '12', netWeight: '2.5', dimensionUnit: 'IN' },
  }),
  /** What a vendor requires on an order of a product: the end user's name for digital products (ours). */
  vendorRequiredInfo: (p: Product | undefined, asked: Record<string, unknown>, quoteNumber: unknown) => ({
    quoteNumber: typeof quoteNumber === 'string' ? quoteNumber : '',
    ingramPartNumber: p?.ingramPartNumber ?? String(asked.ingramPartNumber ?? ''),
    vendorPartNumber: p?.vendorPartNumber ?? String(asked.vendorPartNumber ?? ''),
    planId: String(asked.planID ?? ''),
    planName: '',
    responseMessages: p ? [] : [{ id: 'E', traceId: '', type: 'Error', message: 'Invalid part number' }],
    vmfAdditionalAttributes:
      p?.type === 'IM::digital'
        ? [
            {
              vendorName: p.vendorName,
              productId: p.ingramPartNumber,
              additionalAttributes: [
                {
                  attributeName: 'HEADER_ENDUSER',
                  attributeValue: '',
                  attributeDescription: 'End user name',
                  attributeHint: 'The company the licence is for',
                  attributeRequired: 'true',
                  choices: [],
                },
              ],
            },
          ]
        : [],
    vriAdditionalAttributes: [],
  }),
};
