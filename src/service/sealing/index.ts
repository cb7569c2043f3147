/**
 * Sealing (issue 23): when every signer has signed, a worker job stamps the signatures at their
 * places, appends the audit trail, signs each document as PAdES, and marks the case signed with
 * its `case.signed` event. docs/signing.md "Sealing" describes it.
 */
export { sealCase, type DocumentEvidence, type SealDeps, type SealOutcome } from './seal-case.js';
export { sealedDocumentKey } from './sealed-key.js';
export {
  DEFAULT_SEAL_SWEEP_MS,
  SEAL_QUEUE,
  SealQueue,
  SealWorker,
  type SealJob,
  type SealWorkerOptions,
} from './seal-jobs.js';
