import { test, expect } from '@playwright/test';
import { IM_HEADER_VARIABLES, imHeaderDefaultsUsed, imHeadersFrom } from '../../clients/config';

test.describe('IM-* header configuration', () => {
  test('should name every IM-* variable left unset, and none once all are set', () => {
    const all = Object.keys(IM_HEADER_VARIABLES);
    expect(imHeaderDefaultsUsed({})).toEqual(all);
    expect(imHeaderDefaultsUsed({ IM_CUSTOMER_NUMBER: '20-123456', IM_COUNTRY_CODE: '  ' })).toEqual(
      all.filter((n) => n !== 'IM_CUSTOMER_NUMBER'),
    );
    const set = Object.fromEntries(all.map((n) => [n, 'value']));
    expect(imHeaderDefaultsUsed(set)).toEqual([]);
  });

  test('should send the configured values and the mock defaults for the rest', () => {
    const h = imHeadersFrom({ IM_CUSTOMER_NUMBER: '20-123456' });
    expect(h[IM_HEADER_VARIABLES.IM_CUSTOMER_NUMBER.header]).toBe('20-123456');
    expect(h[IM_HEADER_VARIABLES.IM_COUNTRY_CODE.header]).toBe(IM_HEADER_VARIABLES.IM_COUNTRY_CODE.mockDefault);
    expect(() => imHeadersFrom({ IM_SENDER_ID: 'a\r\nX-Injected: 1' })).toThrow(/single-line/);
  });
});
