/* eslint-disable max-lines -- data written by `npm run openapi -- constraints` */
/**
 * Written by `npm run openapi -- constraints <yaml> <json>` (scripts/openapi.ts): per operation, what either published
 * form of the document allows in a request (catalogue/request-constraints.ts says how the forms are merged). Facts
 * of the document, held to both forms by tests/openapi/request-schemas.spec.ts; edit by regenerating.
 */
export const REQUEST_CONSTRAINTS_DATA = {
  'catalog.priceAndAvailability': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      includeAvailability: {
        required: true,
        type: 'boolean',
      },
      includePricing: {
        required: true,
        type: 'boolean',
      },
      includeProductAttributes: {
        type: 'boolean',
      },
    },
    body: {
      type: 'object',
      properties: {
        showAvailableDiscounts: {
          type: ['boolean', 'null'],
        },
        showReserveInventoryDetails: {
          type: ['boolean', 'null'],
        },
        specialBidNumber: {
          type: ['null', 'string'],
        },
        availabilityByWarehouse: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: {
              availabilityByWarehouseId: {
                type: ['null', 'string'],
              },
              availabilityForAllLocation: {
                type: ['boolean', 'null'],
              },
            },
          },
        },
        products: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              ingramPartNumber: {
                type: ['null', 'string'],
              },
              vendorPartNumber: {
                type: ['null', 'string'],
              },
              customerPartNumber: {
                type: ['null', 'string'],
              },
              upc: {
                type: ['null', 'string'],
              },
              quantityRequested: {
                type: ['null', 'string'],
              },
              planID: {
                type: ['null', 'string'],
              },
              additionalAttributes: {
                type: ['array', 'null'],
                items: {
                  type: ['null', 'object'],
                  properties: {
                    attributeName: {
                      type: ['null', 'string'],
                    },
                    attributeValue: {
                      type: ['null', 'string'],
                    },
                  },
                },
              },
            },
          },
        },
        additionalAttributes: {
          type: ['array', 'null'],
          items: {
            type: ['null', 'object'],
            properties: {
              attributeName: {
                type: ['null', 'string'],
              },
              attributeValue: {
                type: ['null', 'string'],
              },
            },
          },
        },
      },
    },
  },
  'catalog.search': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'Accept-Language': {
        type: 'string',
      },
    },
    query: {
      pageNumber: {
        type: 'integer',
        minimum: -2147483648,
        maximum: 2147483647,
        format: 'int32',
      },
      pageSize: {
        type: 'integer',
        minimum: -2147483648,
        maximum: 2147483647,
        format: 'int32',
      },
      type: {
        type: 'string',
        enum: ['IM::physical', 'IM::digital', 'IM::any'],
      },
      hasDiscounts: {
        type: 'string',
      },
      vendor: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      vendorPartNumber: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      vendorNumber: {
        type: 'string',
      },
      keyword: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      category: {
        type: 'string',
      },
      skipAuthorisation: {
        type: 'string',
      },
      groupName: {
        type: 'string',
      },
      planID: {
        type: 'string',
      },
      showGroupInfo: {
        type: 'boolean',
      },
    },
  },
  'catalog.details': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    path: {
      partNumber: {
        required: true,
        type: 'string',
        maxLength: 6,
      },
    },
  },
  'orders.create': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    body: {
      type: 'object',
      properties: {
        customerOrderNumber: {
          type: 'string',
          maxLength: 35,
        },
        endCustomerOrderNumber: {
          type: 'string',
        },
        billToAddressId: {
          type: 'string',
          maxLength: 10,
        },
        specialBidNumber: {
          type: 'string',
        },
        notes: {
          type: 'string',
        },
        acceptBackOrder: {
          type: 'boolean',
        },
        resellerInfo: {
          type: 'object',
          properties: {
            resellerId: {
              type: 'string',
            },
            companyName: {
              type: 'string',
              maxLength: 40,
            },
            contact: {
              type: 'string',
            },
            addressLine1: {
              type: 'string',
              maxLength: 70,
            },
            addressLine2: {
              type: 'string',
              maxLength: 70,
            },
            addressLine3: {
              type: 'string',
              maxLength: 70,
            },
            city: {
              type: 'string',
              maxLength: 25,
            },
            state: {
              type: 'string',
              maxLength: 3,
            },
            postalCode: {
              type: 'string',
              maxLength: 10,
            },
            countryCode: {
              type: 'string',
              maxLength: 10,
            },
            phoneNumber: {
              type: 'integer',
            },
            email: {
              type: 'string',
            },
          },
        },
        vmf: {
          type: 'object',
          properties: {
            vendAuthNumber: {
              type: 'string',
            },
          },
        },
        shipToInfo: {
          type: 'object',
          properties: {
            addressId: {
              type: 'string',
              maxLength: 10,
            },
            contact: {
              type: 'string',
              maxLength: 70,
            },
            companyName: {
              type: 'string',
              maxLength: 40,
            },
            name1: {
              type: 'string',
            },
            name2: {
              type: 'string',
            },
            addressLine1: {
              type: 'string',
              maxLength: 70,
            },
            addressLine2: {
              type: 'string',
              maxLength: 70,
            },
            addressLine3: {
              type: 'string',
              maxLength: 70,
            },
            addressLine4: {
              type: 'string',
            },
            city: {
              type: 'string',
              maxLength: 25,
            },
            state: {
              type: 'string',
              maxLength: 3,
            },
            postalCode: {
              type: 'string',
              maxLength: 10,
            },
            countryCode: {
              type: 'string',
              maxLength: 10,
            },
            phoneNumber: {
              type: 'string',
            },
            email: {
              type: 'string',
            },
          },
        },
        endUserInfo: {
          type: 'object',
          properties: {
            endUserId: {
              type: 'string',
            },
            contact: {
              type: 'string',
              maxLength: 70,
            },
            companyName: {
              type: 'string',
              maxLength: 40,
            },
            name1: {
              type: 'string',
            },
            name2: {
              type: 'string',
            },
            addressLine1: {
              type: 'string',
              maxLength: 70,
            },
            addressLine2: {
              type: 'string',
              maxLength: 70,
            },
            addressLine3: {
              type: 'string',
              maxLength: 70,
            },
            addressLine4: {
              type: 'string',
            },
            city: {
              type: 'string',
              maxLength: 25,
            },
            state: {
              type: 'string',
              maxLength: 3,
            },
            postalCode: {
              type: 'string',
              maxLength: 10,
            },
            countryCode: {
              type: 'string',
              maxLength: 10,
            },
            phoneNumber: {
              type: 'string',
            },
            email: {
              type: 'string',
            },
          },
        },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              customerLineNumber: {
                type: 'string',
                maxLength: 3,
              },
              ingramPartNumber: {
                type: 'string',
                maxLength: 18,
              },
              quantity: {
                type: 'integer',
              },
              specialBidNumber: {
                type: 'string',
                maxLength: 36,
              },
              notes: {
                type: 'string',
              },
              unitPrice: {
                type: 'number',
              },
              endUserPrice: {
                type: 'number',
              },
              additionalAttributes: {
                type: 'array',
                items: {
                  properties: {
                    attributeName: {
                      type: 'string',
                    },
                    attributeValue: {
                      type: 'string',
                    },
                  },
                },
              },
              warrantyInfo: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    directLineLink: {
                      type: 'string',
                      maxLength: 25,
                    },
                    warrantyLineLink: {
                      type: 'string',
                    },
                    hardwareLineLink: {
                      type: 'string',
                    },
                    serialInfo: {
                      type: 'array',
                      items: {
                        properties: {
                          dateofPurchase: {
                            type: 'string',
                            format: 'date',
                          },
                          shipDate: {
                            type: 'string',
                            format: 'date',
                          },
                          primarySerialNumber: {
                            type: 'string',
                          },
                          secondarySerialNumber: {
                            type: 'string',
                          },
                        },
                      },
                    },
                  },
                },
              },
              endUserInfo: {
                type: 'array',
                items: {
                  properties: {
                    endUserType: {
                      type: 'string',
                    },
                    endUserId: {
                      type: 'string',
                      maxLength: 10,
                    },
                    contact: {
                      type: 'string',
                    },
                    companyName: {
                      type: 'string',
                    },
                    name1: {
                      type: 'string',
                      maxLength: 35,
                    },
                    name2: {
                      type: 'string',
                    },
                    addressLine1: {
                      type: 'string',
                    },
                    addressLine2: {
                      type: 'string',
                    },
                    addressLine3: {
                      type: 'string',
                    },
                    addressLine4: {
                      type: 'string',
                    },
                    city: {
                      type: 'string',
                    },
                    state: {
                      type: 'string',
                    },
                    postalCode: {
                      type: 'string',
                    },
                    countryCode: {
                      type: 'string',
                      maxLength: 3,
                    },
                    phoneNumber: {
                      type: 'number',
                    },
                    email: {
                      type: 'string',
                      maxLength: 241,
                    },
                  },
                },
              },
            },
          },
        },
        shipmentDetails: {
          type: 'object',
          properties: {
            carrierCode: {
              type: 'string',
              maxLength: 10,
            },
            freightAccountNumber: {
              type: 'string',
            },
            shipComplete: {
              type: 'string',
              maxLength: 1,
            },
            requestedDeliveryDate: {
              type: 'string',
              format: 'date',
            },
            signatureRequired: {
              type: 'boolean',
            },
            shippingInstructions: {
              type: 'string',
              maxLength: 132,
            },
          },
        },
        additionalAttributes: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              attributeName: {
                type: 'string',
              },
              attributeValue: {
                type: 'string',
              },
            },
          },
        },
      },
      required: ['customerOrderNumber'],
    },
  },
  'orders.modify': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      actionCode: {
        type: 'string',
      },
      regionCode: {
        type: 'string',
      },
    },
    path: {
      orderNumber: {
        required: true,
        type: 'string',
      },
    },
    body: {
      type: 'object',
      properties: {
        notes: {
          type: 'string',
          maxLength: 132,
        },
        shipToInfo: {
          type: 'object',
          properties: {
            addressId: {
              type: 'string',
              maxLength: 10,
            },
            contact: {
              type: 'string',
              maxLength: 40,
            },
            companyName: {
              type: 'string',
              maxLength: 40,
            },
            name1: {
              type: 'string',
              maxLength: 40,
            },
            name2: {
              type: 'string',
              maxLength: 40,
            },
            addressLine1: {
              type: 'string',
              maxLength: 60,
            },
            addressLine2: {
              type: 'string',
              maxLength: 40,
            },
            addressLine3: {
              type: 'string',
              maxLength: 40,
            },
            city: {
              type: 'string',
              maxLength: 25,
            },
            state: {
              type: 'string',
              maxLength: 3,
            },
            postalCode: {
              type: 'string',
              maxLength: 10,
            },
            countryCode: {
              type: 'string',
              maxLength: 3,
            },
            phoneNumber: {
              type: 'string',
              maxLength: 30,
            },
            email: {
              type: 'string',
              maxLength: 241,
            },
          },
        },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              ingramPartNumber: {
                type: 'string',
                maxLength: 18,
              },
              ingramLineNumber: {
                type: 'string',
                maxLength: 6,
              },
              customerLineNumber: {
                type: 'string',
                maxLength: 6,
              },
              addUpdateDeleteLine: {
                type: 'string',
                enum: ['UPDATE', 'DELETE', 'ADD'],
              },
              quantity: {
                type: 'integer',
              },
              notes: {
                type: 'string',
                maxLength: 132,
              },
            },
          },
        },
        additionalAttributes: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              attributeName: {
                type: 'string',
              },
              attributeValue: {
                type: 'string',
              },
            },
          },
        },
      },
    },
  },
  'orders.details': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      ingramOrderDate: {
        type: 'string',
        format: 'date',
      },
      vendorNumber: {
        type: 'string',
      },
      simulateStatus: {
        type: 'string',
        enum: ['IM::SHIPPED', 'IM::PARTIALLY_SHIPPED', 'IM::HOLD', 'IM::INVOICED'],
      },
      isIml: {
        type: 'boolean',
      },
      regionCode: {
        type: 'string',
      },
    },
    path: {
      orderNumber: {
        required: true,
        type: 'string',
        maxLength: 12,
      },
    },
  },
  'orders.search': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      ingramOrderNumber: {
        type: 'string',
        maxLength: 11,
      },
      orderStatus: {
        type: 'string',
        enum: ['SHIPPED', 'PROCESSING', 'ON HOLD', 'BACKORDERED', 'CANCELLED'],
      },
      'orderStatus-in': {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      ingramOrderDate: {
        type: 'string',
      },
      'ingramOrderDate-bt': {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      customerOrderNumber: {
        type: 'string',
        maxLength: 35,
      },
      pageSize: {
        type: 'integer',
        minimum: -2147483648,
        maximum: 2147483647,
        format: 'int32',
      },
      pageNumber: {
        type: 'integer',
        minimum: -2147483648,
        maximum: 2147483647,
        format: 'int32',
      },
      endCustomerOrderNumber: {
        type: 'string',
        maxLength: 35,
      },
      invoiceDate_bt: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      shipDate_bt: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      deliveryDate_bt: {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      ingramPartNumber: {
        type: 'string',
        maxLength: 35,
      },
      vendorPartNumber: {
        type: 'string',
        maxLength: 35,
      },
      serialNumber: {
        type: 'string',
        maxLength: 35,
      },
      trackingNumber: {
        type: 'string',
        maxLength: 35,
      },
      vendorName: {
        type: 'string',
        maxLength: 35,
      },
      specialBidNumber: {
        type: 'string',
        maxLength: 35,
      },
    },
  },
  'orders.cancel': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      regionCode: {
        type: 'string',
      },
    },
    path: {
      orderNumber: {
        required: true,
        type: 'string',
      },
    },
  },
  'quotes.search': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CustomerContact': {
        required: true,
        type: 'string',
        maxLength: 64,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      'ingramOrderDate-bt': {
        type: 'array',
        items: {
          type: 'string',
        },
      },
      quoteNumber: {
        type: 'string',
      },
      specialBidNumber: {
        type: 'string',
      },
      endUserContact: {
        type: 'string',
      },
      sortingOrder: {
        type: 'string',
      },
      sortBy: {
        type: 'string',
      },
      pageSize: {
        type: 'integer',
      },
      pageNumber: {
        type: 'integer',
      },
      vendorName: {
        type: 'string',
      },
      quoteName: {
        type: 'string',
      },
      status: {
        type: 'string',
      },
      'quoteCreateDate-bt': {
        type: 'string',
      },
    },
  },
  'quotes.details': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    path: {
      quoteNumber: {
        required: true,
        type: 'string',
      },
    },
  },
  'quotes.validate': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      quoteNumber: {
        required: true,
        type: 'string',
      },
    },
  },
  'invoices.search': {
    headers: {
      'IM-ApplicationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      paymentTermsNetDate: {
        type: 'string',
      },
      invoiceDate: {
        type: 'string',
      },
      invoiceDueDate: {
        type: 'string',
      },
      orderDate: {
        type: 'string',
      },
      orderFromDate: {
        type: 'string',
      },
      orderToDate: {
        type: 'string',
      },
      orderNumber: {
        type: 'string',
      },
      DeliveryNumber: {
        type: 'string',
      },
      invoiceNumber: {
        type: 'string',
        maxLength: 11,
      },
      invoiceStatus: {
        type: 'string',
      },
      invoiceType: {
        type: 'string',
      },
      customerOrderNumber: {
        type: 'string',
      },
      endCustomerOrderNumber: {
        type: 'string',
      },
      specialBidNumber: {
        type: 'string',
      },
      invoiceFromDueDate: {
        type: 'string',
      },
      invoiceToDueDate: {
        type: 'string',
      },
      invoiceFromDate: {
        type: 'string',
      },
      invoiceToDate: {
        type: 'string',
      },
      pageSize: {
        type: 'integer',
        minimum: -2147483648,
        maximum: 2147483647,
        format: 'int32',
      },
      pageNumber: {
        type: 'integer',
        minimum: -2147483648,
        maximum: 2147483647,
        format: 'int32',
      },
      orderby: {
        type: 'string',
        maxLength: 32,
      },
      direction: {
        type: 'string',
        maxLength: 32,
      },
      serialNumber: {
        type: 'string',
        maxLength: 32,
      },
    },
  },
  'invoices.details': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-ApplicationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      customerType: {
        type: 'string',
        maxLength: 32,
      },
      includeSerialNumbers: {
        type: 'boolean',
      },
    },
    path: {
      invoiceNumber: {
        required: true,
        type: 'string',
        maxLength: 12,
      },
    },
  },
  'renewals.search': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      customerOrderNumber: {
        type: 'string',
      },
      ingramPurchaseOrderNumber: {
        type: 'string',
      },
      serialNumber: {
        type: 'string',
      },
      page: {
        type: 'string',
      },
      size: {
        type: 'string',
      },
      sort: {
        type: 'string',
      },
    },
    body: {
      type: 'object',
      properties: {
        status: {
          type: 'object',
          properties: {
            OpporutinyStatus: {
              type: 'object',
              properties: {
                value: {
                  type: 'string',
                },
                subStatus: {
                  type: 'string',
                },
              },
            },
          },
        },
        dateType: {
          type: 'object',
          properties: {
            startDate: {
              type: 'object',
              properties: {
                customStartDate: {
                  type: 'string',
                },
                customEndDate: {
                  type: 'string',
                },
              },
            },
            endDate: {
              type: 'object',
              properties: {
                customStartDate: {
                  type: 'string',
                },
                customEndDate: {
                  type: 'string',
                },
              },
            },
            invoiceDate: {
              type: 'object',
              properties: {
                customStartDate: {
                  type: 'string',
                },
                customEndDate: {
                  type: 'string',
                },
              },
            },
            expirationDate: {
              type: 'object',
              properties: {
                customStartDate: {
                  type: 'string',
                },
                customEndDate: {
                  type: 'string',
                },
              },
            },
          },
        },
        vendor: {
          type: 'string',
        },
        endUser: {
          type: 'string',
        },
      },
    },
  },
  'renewals.details': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    path: {
      renewalId: {
        required: true,
        type: 'string',
      },
    },
  },
  'deals.search': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      endUser: {
        type: 'string',
      },
      vendor: {
        type: 'string',
      },
      dealId: {
        type: 'string',
      },
      Size: {
        type: 'integer',
        minimum: -2147483648,
        maximum: 2147483647,
        format: 'int32',
      },
      Page: {
        type: 'integer',
        minimum: -2147483648,
        maximum: 2147483647,
        format: 'int32',
      },
    },
  },
  'deals.details': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-ApplicationId': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      vendorName: {},
    },
    path: {
      dealId: {
        required: true,
        type: 'string',
      },
    },
  },
  'returns.search': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      caseRequestNumber: {
        type: 'string',
      },
      invoiceNumber: {
        type: 'string',
      },
      returnClaimId: {
        type: 'string',
      },
      referenceNumber: {
        type: 'string',
      },
      ingramPartNumber: {
        type: 'string',
      },
      vendorPartNumber: {
        type: 'string',
      },
      'returnStatus-in': {
        type: 'string',
      },
      'claimStatus-in': {
        type: 'string',
      },
      'createdOn-bt': {
        type: 'string',
      },
      'modifiedOn-bt': {
        type: 'string',
      },
      'returnReason-in': {
        type: 'string',
      },
      page: {
        type: 'string',
      },
      size: {
        type: 'string',
      },
      sort: {
        type: 'string',
      },
      sortingColumnName: {
        type: 'string',
      },
    },
  },
  'returns.details': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    path: {
      caseRequestNumber: {
        required: true,
        type: 'string',
      },
    },
  },
  'returns.create': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    body: {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: {
            properties: {
              invoiceNumber: {
                type: 'string',
              },
              invoiceDate: {
                type: 'string',
                format: 'date',
              },
              customerOrderNumber: {
                type: 'string',
              },
              ingramPartNumber: {
                type: 'string',
              },
              vendorPartNumber: {
                type: 'string',
              },
              serialNumber: {
                type: 'string',
              },
              quantity: {
                type: 'integer',
              },
              primaryReason: {
                type: 'string',
              },
              secondaryReason: {
                type: 'string',
              },
              notes: {
                type: 'string',
              },
              referenceNumber: {
                type: 'string',
              },
              billToAddressId: {
                type: 'string',
              },
              shipFromInfo: {
                type: 'array',
                items: {
                  properties: {
                    companyName: {
                      type: 'string',
                    },
                    contact: {
                      type: 'string',
                    },
                    addressLine1: {
                      type: 'string',
                    },
                    addressLine2: {
                      type: 'string',
                    },
                    addressLine3: {
                      type: 'string',
                    },
                    city: {
                      type: 'string',
                    },
                    state: {
                      type: 'string',
                    },
                    postalCode: {
                      type: 'string',
                    },
                    countryCode: {
                      type: 'string',
                    },
                    email: {
                      type: 'string',
                    },
                    phoneNumber: {
                      type: 'string',
                    },
                  },
                  required: ['companyName', 'contact', 'addressLine1', 'city', 'state', 'postalCode', 'countryCode', 'email'],
                },
              },
              numberOfBoxes: {
                type: 'integer',
              },
            },
            required: ['invoiceNumber', 'invoiceDate', 'quantity', 'primaryReason', 'secondaryReason', 'shipFromInfo', 'numberOfBoxes'],
          },
        },
      },
    },
  },
  'freight.estimate': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-CustomerContact': {
        required: true,
        type: 'string',
        maxLength: 64,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    body: {
      type: 'object',
      properties: {
        shipToAddressId: {
          type: 'string',
        },
        shipToAddress: {
          type: ['array', 'object'],
          items: {
            type: 'object',
            properties: {
              companyName: {
                type: 'string',
              },
              addressLine1: {
                type: 'string',
              },
              addressLine2: {
                type: 'string',
              },
              addressLine3: {
                type: 'string',
              },
              city: {
                type: 'string',
              },
              state: {
                type: 'string',
              },
              postalCode: {
                type: 'string',
              },
              countryCode: {
                type: 'string',
              },
            },
          },
          properties: {
            companyName: {
              type: 'string',
            },
            addressLine1: {
              type: 'string',
            },
            addressLine2: {
              type: 'string',
            },
            addressLine3: {
              type: 'string',
            },
            city: {
              type: 'string',
            },
            state: {
              type: 'string',
            },
            postalCode: {
              type: 'string',
            },
            countryCode: {
              type: 'string',
            },
          },
        },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              customerLineNumber: {
                type: 'string',
              },
              ingramPartNumber: {
                type: 'string',
              },
              quantity: {
                type: 'string',
              },
              warehouseId: {
                type: 'string',
              },
              carrierCode: {
                type: 'string',
              },
            },
          },
        },
      },
    },
  },
  'webhooks.orderStatus': {
    headers: {
      targeturl: {
        required: true,
        type: 'string',
      },
      'x-hub-signature': {
        required: true,
        type: 'string',
      },
    },
    query: {},
    body: {
      type: 'object',
      properties: {
        topic: {
          type: 'string',
        },
        event: {
          type: 'string',
        },
        eventTimeStamp: {
          type: 'string',
        },
        eventId: {
          type: 'string',
        },
        resource: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              eventType: {
                type: 'string',
              },
              orderNumber: {
                type: 'string',
              },
              customerOrderNumber: {
                type: 'string',
              },
              orderEntryTimeStamp: {
                type: 'string',
              },
              lines: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    LineNumber: {
                      type: 'string',
                    },
                    subOrderNumber: {
                      type: 'string',
                    },
                    lineStatus: {
                      type: 'string',
                    },
                    ingramPartNumber: {
                      type: 'string',
                    },
                    vendorPartNumber: {
                      type: 'string',
                    },
                    requestedQuantity: {
                      type: 'string',
                    },
                    shippedQuantity: {
                      type: 'string',
                    },
                    backorderedQuantity: {
                      type: 'string',
                    },
                    shipmentDetails: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          shipmentDate: {
                            type: 'string',
                          },
                          shipFromWarehouseId: {
                            type: 'string',
                          },
                          warehouseName: {
                            type: 'string',
                          },
                          carrierCode: {
                            type: 'string',
                          },
                          carrierName: {
                            type: 'string',
                          },
                          packageDetails: {
                            type: 'array',
                            items: {
                              type: 'object',
                              properties: {
                                cartonNumber: {
                                  type: 'string',
                                },
                                quantityInbox: {
                                  type: 'string',
                                },
                                trackingNumber: {
                                  type: 'string',
                                },
                              },
                            },
                          },
                        },
                      },
                    },
                    serialNumberDetails: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          serialNumber: {
                            type: 'string',
                          },
                        },
                      },
                    },
                  },
                },
              },
              links: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    topic: {
                      type: 'string',
                    },
                    href: {
                      type: 'string',
                    },
                    type: {
                      type: 'string',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  'webhooks.availabilityUpdate': {
    headers: {
      targeturl: {
        required: true,
        type: 'string',
      },
      'x-hub-signature': {
        required: true,
        type: 'string',
      },
    },
    query: {},
    body: {
      type: 'object',
      properties: {
        topic: {
          type: 'string',
        },
        event: {
          type: 'string',
        },
        eventTimeStamp: {
          type: 'string',
        },
        eventId: {
          type: 'string',
        },
        resource: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              eventType: {
                type: 'string',
              },
              ingramPartNumber: {
                type: 'string',
              },
              vendorPartNumber: {
                type: 'string',
              },
              vendorName: {
                type: 'string',
              },
              upcCode: {
                type: 'string',
              },
              skuStatus: {
                type: 'string',
              },
              backOrderFlag: {
                type: 'string',
              },
              totalAvailability: {
                type: 'string',
              },
              links: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    topic: {
                      type: 'string',
                    },
                    href: {
                      type: 'string',
                    },
                    type: {
                      type: 'string',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  'catalog.detailsByReference': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {
      planName: {
        type: 'string',
      },
      planId: {
        type: 'string',
      },
      vendorPartNumber: {
        type: 'string',
      },
    },
  },
  'orders.createV7': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
        minLength: 2,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    body: {
      type: 'object',
      properties: {
        quoteNumber: {
          type: ['null', 'string'],
          maxLength: 35,
        },
        customerOrderNumber: {
          type: 'string',
          maxLength: 18,
        },
        endCustomerOrderNumber: {
          type: ['null', 'string'],
          maxLength: 18,
        },
        notes: {
          type: 'string',
        },
        billToAddressId: {
          type: 'string',
        },
        specialBidNumber: {
          type: ['null', 'string'],
        },
        acceptBackOrder: {
          type: ['boolean', 'null'],
        },
        vendAuthNumber: {
          type: ['null', 'string'],
        },
        resellerInfo: {
          type: ['null', 'object'],
          properties: {
            resellerId: {
              type: ['null', 'string'],
            },
            companyName: {
              type: ['null', 'string'],
              maxLength: 40,
            },
            contact: {
              type: ['null', 'string'],
            },
            addressLine1: {
              type: ['null', 'string'],
            },
            addressLine2: {
              type: ['null', 'string'],
            },
            city: {
              type: ['null', 'string'],
            },
            state: {
              type: ['null', 'string'],
            },
            postalCode: {
              type: ['null', 'string'],
              maxLength: 10,
            },
            countryCode: {
              type: ['null', 'string'],
              maxLength: 10,
            },
            phoneNumber: {
              type: ['null', 'string'],
            },
            email: {
              type: ['null', 'string'],
            },
          },
        },
        endUserInfo: {
          type: 'object',
          properties: {
            endUserId: {
              type: ['null', 'string'],
            },
            contact: {
              type: ['null', 'string'],
            },
            companyName: {
              type: ['null', 'string'],
              maxLength: 40,
            },
            addressLine1: {
              type: ['null', 'string'],
              maxLength: 70,
            },
            addressLine2: {
              type: ['null', 'string'],
              maxLength: 70,
            },
            city: {
              type: ['null', 'string'],
              maxLength: 25,
            },
            state: {
              type: ['null', 'string'],
              maxLength: 3,
            },
            postalCode: {
              type: ['null', 'string'],
              maxLength: 10,
            },
            countryCode: {
              type: ['null', 'string'],
              maxLength: 10,
            },
            phoneNumber: {
              type: ['null', 'string'],
            },
            email: {
              type: ['null', 'string'],
            },
          },
        },
        shipToInfo: {
          type: ['null', 'object'],
          properties: {
            addressId: {
              type: 'string',
              maxLength: 10,
            },
            contact: {
              type: ['null', 'string'],
              maxLength: 70,
            },
            companyName: {
              type: ['null', 'string'],
              maxLength: 40,
            },
            addressLine1: {
              type: ['null', 'string'],
              maxLength: 70,
            },
            addressLine2: {
              type: ['null', 'string'],
              maxLength: 70,
            },
            city: {
              type: ['null', 'string'],
              maxLength: 25,
            },
            state: {
              type: ['null', 'string'],
              maxLength: 3,
            },
            postalCode: {
              type: ['null', 'string'],
            },
            countryCode: {
              type: ['null', 'string'],
              maxLength: 10,
            },
            email: {
              type: ['null', 'string'],
            },
            shippingNotes: {
              type: ['null', 'string'],
            },
            phoneNumber: {
              type: ['null', 'string'],
            },
          },
        },
        shipmentDetails: {
          type: ['null', 'object'],
          properties: {
            carrierCode: {
              type: ['null', 'string'],
              maxLength: 10,
            },
            requestedDeliveryDate: {
              type: ['null', 'string'],
              maxLength: 8,
            },
            shipComplete: {
              type: ['null', 'string'],
              maxLength: 1,
            },
            shippingInstructions: {
              type: ['null', 'string'],
              maxLength: 132,
            },
            freightAccountNumber: {
              type: ['null', 'string'],
            },
            signatureRequired: {
              type: ['boolean', 'null'],
            },
          },
        },
        additionalAttributes: {
          type: ['array', 'null'],
          items: {
            type: ['null', 'object'],
            properties: {
              attributeName: {
                type: ['null', 'string'],
              },
              attributeValue: {
                type: ['null', 'string'],
              },
            },
          },
        },
        vmfAdditionalAttributes: {
          type: ['array', 'null'],
          items: {
            type: ['null', 'object'],
            properties: {
              attributeName: {
                type: ['null', 'string'],
              },
              attributeValue: {
                type: ['null', 'string'],
              },
            },
          },
        },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              customerLineNumber: {
                type: 'string',
                maxLength: 3,
              },
              ingramPartNumber: {
                type: ['null', 'string'],
                maxLength: 18,
              },
              vendorPartNumber: {
                type: ['null', 'string'],
              },
              quantity: {
                type: 'integer',
              },
              unitPrice: {
                type: ['null', 'number'],
              },
              specialBidNumber: {
                type: ['null', 'string'],
                maxLength: 36,
              },
              endUserPrice: {
                type: ['null', 'number'],
              },
              notes: {
                type: ['null', 'string'],
              },
              endUserInfo: {
                type: ['array', 'null'],
                items: {
                  type: 'object',
                  properties: {
                    endUserId: {
                      type: 'string',
                      maxLength: 10,
                    },
                    endUserType: {
                      type: 'string',
                    },
                    companyName: {
                      type: 'string',
                    },
                    addressLine1: {
                      type: 'string',
                    },
                    addressLine2: {
                      type: 'string',
                    },
                    contact: {
                      type: 'string',
                    },
                    city: {
                      type: 'string',
                    },
                    state: {
                      type: 'string',
                    },
                    postalCode: {
                      type: 'string',
                    },
                    countryCode: {
                      type: 'string',
                    },
                    phoneNumber: {
                      type: 'string',
                      maxLength: 30,
                    },
                    email: {
                      type: 'string',
                      maxLength: 241,
                    },
                  },
                },
              },
              additionalAttributes: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    attributeName: {
                      type: 'string',
                    },
                    attributeValue: {
                      type: 'string',
                    },
                  },
                },
              },
              vmfAdditionalAttributesLines: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    attributeName: {
                      type: 'string',
                    },
                    attributeValue: {
                      type: 'string',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  'orders.vendorRequiredInfo': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-SenderID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    body: {
      type: 'object',
      properties: {
        quoteNumber: {
          type: 'string',
        },
        products: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              ingramPartNumber: {
                type: 'string',
              },
              vendorPartNumber: {
                type: 'string',
              },
              planID: {
                type: 'string',
              },
            },
          },
        },
      },
    },
  },
  'quotes.create': {
    headers: {
      'IM-CustomerNumber': {
        required: true,
        type: 'string',
        maxLength: 10,
      },
      'IM-CountryCode': {
        required: true,
        type: 'string',
        maxLength: 2,
      },
      'IM-CorrelationID': {
        required: true,
        type: 'string',
        maxLength: 32,
      },
      'IM-SenderID': {
        type: 'string',
        maxLength: 32,
      },
    },
    query: {},
    body: {
      type: 'object',
      properties: {
        quoteName: {
          type: 'string',
        },
        firstname: {
          type: 'string',
        },
        lastname: {
          type: 'string',
        },
        CustomerContact: {
          type: 'string',
          maxLength: 64,
        },
        quoteExpiryDate: {
          type: 'string',
        },
        customerNeed: {
          type: 'string',
        },
        endUserInfo: {
          type: 'object',
          properties: {
            companyName: {
              type: 'string',
            },
            contact: {
              type: 'string',
            },
            addressLine1: {
              type: 'string',
            },
            addressLine2: {
              type: 'string',
            },
            city: {
              type: 'string',
            },
            state: {
              type: 'string',
            },
            postalCode: {
              type: 'string',
            },
            countryCode: {
              type: 'string',
            },
            email: {
              type: 'string',
            },
            phoneNumber: {
              type: 'string',
            },
          },
        },
        dealId: {
          type: 'string',
        },
        pricingType: {
          type: 'string',
        },
        sendQuoteCopy: {
          type: 'string',
        },
        products: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              customerLineNumber: {
                type: 'string',
              },
              ingramPartNumber: {
                type: 'string',
              },
              vendorPartNumber: {
                type: 'string',
              },
              quantity: {
                type: 'string',
              },
              specialBid: {
                type: 'string',
              },
              lineLevelNotes: {
                type: 'string',
              },
              pricingType: {
                type: 'string',
              },
            },
          },
        },
      },
    },
  },
};
