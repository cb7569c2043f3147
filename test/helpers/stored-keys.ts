import { Queue } from 'bullmq';
import type { DocumentJobData } from '../../src/jobs/queue/index.js';
import { storedDocumentKey } from '../../src/render/storage/index.js';
import type { Lane } from './queue-stack.js';

/**
 * Storage keys of each kind, numbered, for tests of what storage holds (retention, the storage
 * command): the n-th object of a kind has a key of its own, as docpipe would name it.
 */
export const sha = (n: number) => n.toString(16).padStart(64, '0');
export const upload = (n: number) => storedDocumentKey('acme', sha(n), 'pdf');
export const render = (n: number) => `renders/${sha(n).slice(0, 2)}/${sha(n)}.pdf`;
export const marker = (n: number) => render(n).replace(/\.pdf$/, '.kept');
export const jobInput = (n: number) => `uploads/${sha(n)}.bin`;

/** A document job that reads `storageKey`, as the queue's client adds one. */
export function jobData(storageKey: string): DocumentJobData {
  return { v: 1, field: 'documents[0]', name: 'Lease', source: { storageKey } };
}

/** The lane's documents queue, as docpipe's client names it; close it when done. */
export function documentsQueue(lane: Lane): Queue {
  return new Queue('documents', { connection: lane.connection, prefix: lane.prefix });
}

/** Adds a waiting job that needs `storageKey` to the lane's queue. */
export async function queueJobNeeding(lane: Lane, storageKey: string): Promise<void> {
  const queue = documentsQueue(lane);
  try {
    await queue.add('document', jobData(storageKey));
  } finally {
    await queue.close();
  }
}
