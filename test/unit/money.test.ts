import { describe, expect, it } from 'vitest';
import {
  applyRate,
  formatFraction,
  formatKroner,
  formatPercent,
  parseFraction,
  parseKroner,
} from '../../src/base/util/index.js';
import { glnProblem } from '../../src/service/credits/index.js';

describe('money in øre and rates in parts per million', () => {
  it('rounds half an øre up, and anything less down', () => {
    // 5 øre × 10 % = 0.5 øre: up to 1; 4 øre × 10 % = 0.4: down to 0.
    expect(applyRate(5n, 100_000)).toBe(1n);
    expect(applyRate(4n, 100_000)).toBe(0n);
    expect(applyRate(15n, 100_000)).toBe(2n);
    expect(applyRate(14n, 100_000)).toBe(1n);
    expect(applyRate(22_500n, 150_000)).toBe(3_375n);
    expect(applyRate(12_345n, 0)).toBe(0n);
    expect(applyRate(12_345n, 1_000_000)).toBe(12_345n);
    // Beyond 2^53, exactly.
    expect(applyRate(10n ** 20n + 1n, 500_000)).toBe(5n * 10n ** 19n + 1n);
    expect(() => applyRate(-1n, 1)).toThrow(RangeError);
  });

  it('reads a fraction from its digits, never through a float', () => {
    expect(parseFraction('0.15')).toBe(150_000);
    expect(parseFraction('0.125')).toBe(125_000);
    expect(parseFraction('0.000001')).toBe(1);
    expect(parseFraction('1')).toBe(1_000_000);
    expect(parseFraction(' 0 ')).toBe(0);
    // 0.07 is 0.07000000000000001 as a float; here it is 70000 exactly.
    expect(parseFraction('0.07')).toBe(70_000);
    for (const bad of ['1.5', '-0.1', '15%', '0.1234567', '.5', '1e-1', '', 'abc'])
      expect(parseFraction(bad), bad).toBeUndefined();
    expect(formatFraction(150_000)).toBe('0.15');
    expect(formatFraction(1_000_000)).toBe('1');
    expect(formatFraction(0)).toBe('0');
    expect(formatPercent(125_000)).toBe('12.5 %');
    expect(formatPercent(150_000)).toBe('15 %');
  });

  it('reads kroner with at most two decimals and writes øre back the same', () => {
    expect(parseKroner('2.50')).toBe(250n);
    expect(parseKroner('2.5')).toBe(250n);
    expect(parseKroner('12')).toBe(1_200n);
    expect(parseKroner('0.05')).toBe(5n);
    for (const bad of ['2.505', '-1', '1,000', '1.000,50', '', '2.'])
      expect(parseKroner(bad), bad).toBeUndefined();
    expect(formatKroner(28_125n)).toBe('281.25');
    expect(formatKroner('5')).toBe('0.05');
    expect(formatKroner(-150n)).toBe('-1.50');
  });

  it("checks an EAN location number's check digit", () => {
    expect(glnProblem('5790000000005')).toBeUndefined();
    expect(glnProblem('5790 0000 00005')).toBeUndefined();
    expect(glnProblem('5790000000006')).toBe('checksum');
    expect(glnProblem('579000000000')).toBe('format');
  });
});
