import { describe, expect, it } from 'vitest';
import { companySlug, uniqueSlug } from '../../src/service/accounts/index.js';
import { isCompanyId } from '../../src/service/tenancy/index.js';

describe('company id from the name at sign-up', () => {
  it('is lowercase ASCII joined by dashes, Danish letters spelt out', () => {
    expect(companySlug('Brødrene Hansen A/S')).toBe('broedrene-hansen-a-s');
    expect(companySlug('Ærø Æbler & Co.')).toBe('aeroe-aebler-co');
    expect(companySlug('Åbenrå Café')).toBe('aabenraa-cafe');
    expect(companySlug('  --Acme--  ')).toBe('acme');
  });

  it('is "company" when nothing of the name is left, and always a company id', () => {
    expect(companySlug('株式会社')).toBe('company');
    expect(companySlug('!!!')).toBe('company');
    const long = companySlug('a'.repeat(500));
    expect(long.length).toBe(120);
    for (const name of ['Brødrene Hansen A/S', '株式会社', 'a'.repeat(500), 'x-'.repeat(200)])
      expect(isCompanyId(companySlug(name)), name).toBe(true);
  });

  it('is made unique by -2, -3, ...', () => {
    expect(uniqueSlug('acme', new Set())).toBe('acme');
    expect(uniqueSlug('acme', new Set(['acme']))).toBe('acme-2');
    expect(uniqueSlug('acme', new Set(['acme', 'acme-2', 'acme-3']))).toBe('acme-4');
    expect(uniqueSlug('acme', new Set(['acme-2']))).toBe('acme');
  });
});
