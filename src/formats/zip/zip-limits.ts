/** Caps checked from the central directory before a single byte is inflated. */
export interface ZipLimits {
  /**
   * Most entries an archive may list. A real .docx has tens; tens of thousands of tiny entries
   * cost time in every tool that walks them.
   * @defaultValue 5000
   */
  maxEntries: number;
  /**
   * Most bytes all entries may inflate to, together.
   * @defaultValue 256 MiB
   */
  maxUncompressedBytes: number;
  /**
   * Highest uncompressed-to-compressed ratio an entry may claim. Word XML compresses 5 to 30
   * times; bombs claim thousands.
   * @defaultValue 200
   */
  maxCompressionRatio: number;
  /**
   * Entries smaller than this are not held to the ratio: a tiny part can compress very well
   * and is harmless.
   * @defaultValue 1 MiB
   */
  ratioCheckMinBytes: number;
}

export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxEntries: 5000,
  maxUncompressedBytes: 256 * 1024 * 1024,
  maxCompressionRatio: 200,
  ratioCheckMinBytes: 1024 * 1024,
});

/** Every problem with a set of limits, so that configuration reports them together. */
export function zipLimitsProblems(limits: ZipLimits): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(DEFAULT_ZIP_LIMITS) as (keyof ZipLimits)[]) {
    const value = limits[key];
    if (!Number.isSafeInteger(value) || value <= 0) {
      problems.push(`${key} must be a positive integer (got ${String(value)})`);
    }
  }
  return problems;
}
