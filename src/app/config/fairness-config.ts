/** How companies share the workers: caps per company (scheduling itself is always fair). */
export interface FairnessConfig {
  /**
   * `DOCPIPE_COMPANY_MAX_QUEUED`: jobs one company may have waiting; more are refused (HTTP 429
   * with Retry-After) until some have started. 0 is no cap. @defaultValue 10000
   */
  maxQueued: number;
  /**
   * `DOCPIPE_COMPANY_MAX_ACTIVE`: documents of one company converted at once across every
   * worker; 0 is no cap. @defaultValue 0
   */
  maxActive: number;
}

export const DEFAULT_FAIRNESS: FairnessConfig = { maxQueued: 10_000, maxActive: 0 };

export function fairnessConfigFrom(
  count: (name: string, fallback: number) => number,
): FairnessConfig {
  return {
    maxQueued: count('DOCPIPE_COMPANY_MAX_QUEUED', DEFAULT_FAIRNESS.maxQueued),
    maxActive: count('DOCPIPE_COMPANY_MAX_ACTIVE', DEFAULT_FAIRNESS.maxActive),
  };
}
