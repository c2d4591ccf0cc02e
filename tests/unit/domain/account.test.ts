import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { groupSecret, isOtpCode, summariseUserAgent } from '../../../src/domain/account';

describe('summariseUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Firefox on Windows',
    ],
    ['curl/8.5.0', 'curl'],
    [null, 'Unknown browser'],
    ['   ', 'Unknown browser'],
  ])('%s → %s', (ua, expected) => {
    expect(summariseUserAgent(ua)).toBe(expected);
  });

  it('never throws and stays short on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), (ua) => {
        expect(summariseUserAgent(ua).length).toBeLessThanOrEqual(60);
      }),
      { seed: 23 },
    );
  });
});

describe('groupSecret and isOtpCode', () => {
  it('groups a base32 secret in fours', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXPJB')).toBe('JBSW Y3DP EHPK 3PXP JB');
  });
  it('accepts six digits with spaces, nothing else', () => {
    expect(isOtpCode('123 456')).toBe(true);
    expect(isOtpCode('12345')).toBe(false);
    expect(isOtpCode('12345a')).toBe(false);
  });
});
