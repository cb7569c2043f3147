import { describe, expect, it } from 'vitest';
import { cvrProblem, normalizeCvr } from '../../src/service/accounts/index.js';

describe('CVR number check (modulus 11, weights 2,7,6,5,4,3,2,1)', () => {
  it('accepts real CVR numbers', () => {
    // Novo Nordisk A/S and A.P. Møller - Mærsk A/S, from the register.
    expect(cvrProblem('24256790')).toBeUndefined();
    expect(cvrProblem('22756214')).toBeUndefined();
  });

  it('accepts the spaces and DK prefix people copy from invoices', () => {
    expect(cvrProblem('DK 24 25 67 90')).toBeUndefined();
    expect(normalizeCvr('dk24256790')).toBe('24256790');
  });

  it('refuses a number whose weighted sum is no multiple of 11', () => {
    expect(cvrProblem('24256791')).toBe('checksum');
    // Two neighbouring digits swapped.
    expect(cvrProblem('42256790')).toBe('checksum');
  });

  it('catches every single wrong digit of a valid number', () => {
    const valid = '24256790';
    for (let i = 0; i < 8; i++)
      for (let d = 0; d <= 9; d++) {
        if (String(d) === valid[i] || (i === 0 && d === 0)) continue;
        const changed = valid.slice(0, i) + String(d) + valid.slice(i + 1);
        expect(cvrProblem(changed), changed).toBe('checksum');
      }
  });

  it('refuses what is not 8 digits, or starts with 0', () => {
    for (const value of ['', '1234567', '123456789', '2425679a', '02425679', '24-256790'])
      expect(cvrProblem(value), value).toBe('format');
  });
});
