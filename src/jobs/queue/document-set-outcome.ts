import { isFailure, type Failure, type FailureDetail } from '../../base/errors/index.js';
import type { DocumentJobResult } from './job-contract.js';

/** A document set's one answer: every document's result, or every failing document's details. */
export type DocumentSetOutcome =
  { ok: true; results: DocumentJobResult[] } | { ok: false; failure: Failure };

/** Reads a failed job's reason back into a Failure; anything else was an internal error. */
export function failureFromReason(reason: string | undefined, field: string): Failure {
  try {
    const parsed: unknown = JSON.parse(reason ?? '');
    if (isFailure(parsed)) return parsed;
  } catch {
    // Not one of ours.
  }
  return {
    error: 'document-production-failed',
    details: [{ field, message: `docpipe failed internally: ${reason ?? 'no reason given'}` }],
    retryable: true,
  };
}

/**
 * Reads a document set job's return value, which crossed the queue as JSON: a failure counts only when
 * it has the wire form (`isFailure`); anything else is an internal error, worth retrying.
 */
export function readDocumentSetOutcome(value: unknown, field: string): DocumentSetOutcome {
  const v = value as { ok?: unknown; results?: unknown; failure?: unknown } | null;
  if (v?.ok === true && Array.isArray(v.results))
    return { ok: true, results: v.results as DocumentJobResult[] };
  if (v?.ok === false && isFailure(v.failure)) return { ok: false, failure: v.failure };
  const seen = JSON.stringify(value) ?? 'nothing';
  return { ok: false, failure: failureFromReason(`a document set ended with ${seen}`, field) };
}

/**
 * Joins failures of several documents into one answer. Its slug is the first failing document's
 * (documents in order); its details are every failing document's.
 */
export function joinFailures(failures: { field: string; failure: Failure }[]): Failure {
  const ordered = [...failures].sort((a, b) => fieldIndex(a.field) - fieldIndex(b.field));
  const details: FailureDetail[] = ordered.flatMap((f) => f.failure.details);
  return { error: ordered[0]!.failure.error, details };
}

function fieldIndex(field: string): number {
  const m = /\[(\d+)\]/.exec(field);
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
}
