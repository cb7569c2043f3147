import type { FailureDetail } from '../../base/errors/index.js';
import type { BatchOutcome } from '../queue/index.js';
import { objectLocation, type Storage } from '../../render/storage/index.js';
import type { BatchItem } from './batch-item.js';
import { failureReason, failureText } from './failure-text.js';

/** What a batch did, document by document, with counts a person reads first. */
export interface BatchReport {
  total: number;
  converted: number;
  fromCache: number;
  /** Rendered by an earlier run of the same batch (stable job ids): not done again. */
  fromEarlierRun: number;
  byReference: number;
  failed: number;
  /** By the real reason: a sniff reason (`encrypted`, `damaged`) or else the failure's slug. */
  failedByReason: Record<string, number>;
  seconds: number;
  documents: {
    document: string;
    ok: boolean;
    key?: string;
    /** Where the stored PDF is: its absolute path, or its s3:// URL on S3 storage. */
    path?: string;
    /** Its copy in the output folder. */
    out?: string;
    pages?: number;
    cached?: boolean;
    resumed?: boolean;
    error?: string;
    reason?: string;
    /** Every detail on one line, each naming the tag or member it is about. */
    message?: string;
    /** The failure's details as the queue gave them, each with its field path. */
    details?: FailureDetail[];
  }[];
}

/** The report of a batch whose `outcomes[i]` belongs to `items[i]`. */
export function summarizeBatch(
  items: BatchItem[],
  outcomes: BatchOutcome[],
  ms: number,
  storage: Storage,
): BatchReport {
  const report: BatchReport = {
    total: items.length,
    converted: 0,
    fromCache: 0,
    fromEarlierRun: 0,
    byReference: 0,
    failed: 0,
    failedByReason: {},
    seconds: ms / 1000,
    documents: [],
  };
  outcomes.forEach((o, i) => {
    const document = items[i]!.label;
    if (!o.ok) {
      report.failed++;
      const reason = failureReason(o.failure);
      report.failedByReason[reason] = (report.failedByReason[reason] ?? 0) + 1;
      report.documents.push({
        document,
        ok: false,
        error: o.failure.error,
        reason,
        message: failureText(o.failure),
        details: o.failure.details,
      });
    } else if (o.result.kind === 'url') {
      report.byReference++;
      report.documents.push({ document, ok: true });
    } else {
      // Each document counts once: what this run did for it, or that an earlier run had.
      if (o.resumed) report.fromEarlierRun++;
      else if (o.result.result.cached) report.fromCache++;
      else report.converted++;
      report.documents.push({
        document,
        ok: true,
        key: o.result.result.key,
        path: objectLocation(storage, o.result.result.key),
        pages: o.result.result.pages,
        cached: o.result.result.cached,
        ...(o.resumed ? { resumed: true } : {}),
      });
    }
  });
  return report;
}
