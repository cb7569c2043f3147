import { DEFAULT_ZIP_LIMITS, zipLimitsProblems, type ZipLimits } from '../zip/index.js';

export interface SniffLimits extends ZipLimits {
  /**
   * Largest input accepted at all, in bytes.
   * @defaultValue 64 MiB
   */
  maxInputBytes: number;
}

export const DEFAULT_SNIFF_LIMITS: Readonly<SniffLimits> = Object.freeze({
  ...DEFAULT_ZIP_LIMITS,
  maxInputBytes: 64 * 1024 * 1024,
});

export function sniffLimitsProblems(limits: SniffLimits): string[] {
  const problems = zipLimitsProblems(limits);
  if (!Number.isSafeInteger(limits.maxInputBytes) || limits.maxInputBytes <= 0) {
    problems.push(`maxInputBytes must be a positive integer (got ${String(limits.maxInputBytes)})`);
  }
  return problems;
}
