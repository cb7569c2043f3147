import { describe, expect, it } from 'vitest';
import { didYouMean, nearMatch } from '../../src/base/util/index.js';

describe('nearMatch', () => {
  const fields = ['client_name', 'client_address', 'start_date', 'amount'];

  it('finds the field a swapped, dropped, added or changed letter meant', () => {
    expect(nearMatch('client_nmae', fields)).toBe('client_name');
    expect(nearMatch('client_nam', fields)).toBe('client_name');
    expect(nearMatch('client_names', fields)).toBe('client_name');
    expect(nearMatch('start_dato', fields)).toBe('start_date');
    expect(nearMatch('Client_Name', fields)).toBe('client_name');
  });

  it('answers nothing when no field is close, or for a short name that any would match', () => {
    expect(nearMatch('signature', fields)).toBeUndefined();
    expect(nearMatch('amt', fields)).toBeUndefined();
    expect(nearMatch('client_name', fields)).toBeUndefined();
    expect(nearMatch('anything', [])).toBeUndefined();
  });

  it('says it as the end of a message', () => {
    expect(didYouMean('client_nmae', fields)).toBe(' (did you mean "client_name"?)');
    expect(didYouMean('xyz', fields)).toBe('');
  });
});
