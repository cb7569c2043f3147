import type { BatchOutcome, DocpipeClient } from '../queue/index.js';
import type { BatchItem } from './batch-item.js';

export interface RunBatchOptions {
  /** How long to wait for each document. */
  timeoutMs: number;
  /** Called once a document has an outcome, in the order they settle. */
  onSettled?: (outcome: BatchOutcome) => void;
}

/**
 * Sends a batch's documents through the queue under their stable job ids and answers each item's
 * outcome, in the items' order. Items refused before the queue (a missing file) keep their
 * failure and are not sent.
 */
export async function runBatch(
  client: DocpipeClient,
  items: BatchItem[],
  options: RunBatchOptions,
): Promise<BatchOutcome[]> {
  const toSend = items.filter((i) => !i.failure);
  const sent =
    toSend.length === 0
      ? []
      : await client.renderEach(
          toSend.map((i) => ({ document: i.document, jobId: i.jobId })),
          (_index, outcome) => options.onSettled?.(outcome),
          { timeoutMs: options.timeoutMs },
        );
  let next = 0;
  return items.map((item): BatchOutcome =>
    item.failure ? { ok: false, failure: item.failure, resumed: false } : sent[next++]!,
  );
}
