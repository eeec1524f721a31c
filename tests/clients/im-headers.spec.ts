import { test, expect } from '@playwright/test';
import { IM_HEADER_VARIABLES, imHeaderDefaultsUsed, imHeadersFrom } from '../../config/headers';
import { newCorrelationId } from '../../clients/http';
import { correlationIdOf } from '../../catalogue';

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

  test('should refuse at start-up an IM-* value the published document does not allow, naming the variable', () => {
    expect(() => imHeadersFrom({ IM_COUNTRY_CODE: 'USA' })).toThrow(
      /IM_COUNTRY_CODE breaks the published document's constraint on IM-CountryCode: IM-CountryCode must be at most 2 characters, received 3/,
    );
    expect(() => imHeadersFrom({ IM_CUSTOMER_NUMBER: '20-2222222222' })).toThrow(/IM_CUSTOMER_NUMBER .* at most 10 characters/);
    expect(() => imHeadersFrom({ IM_SENDER_ID: 's'.repeat(33) })).toThrow(/IM_SENDER_ID .* at most 32 characters/);
    expect(() => imHeadersFrom({ IM_COUNTRY_CODE: 'DE', IM_SENDER_ID: 's'.repeat(32) })).not.toThrow();
  });

  test('should make every IM-CorrelationID 32 hexadecimal characters, fresh per request', () => {
    const ids = Array.from({ length: 200 }, () => newCorrelationId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(correlationIdOf(new Array<number>(16).fill(255))).toBe('ffffffffffff4fffbfffffffffffffff');
  });
});
