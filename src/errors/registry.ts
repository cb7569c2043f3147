/**
 * The one failure registry. Slugs are exactly those of the service spec (section 7.2); they are
 * what crosses threads, processes and the queue, and the error class is rebuilt from them on
 * the other side.
 */
export const FAILURES = {
  'validation-failed': {
    status: 400,
    retryable: false,
    description: 'One or more invalid fields; see details.',
  },
  'document-not-found': {
    status: 404,
    retryable: false,
    description: 'A library document is absent or not visible.',
  },
  'document-version-not-found': {
    status: 400,
    retryable: false,
    description: 'The versionId does not belong to the document.',
  },
  'document-conversion-failed': {
    status: 400,
    retryable: false,
    description: 'The .docx could not be converted (a valid container may still be unopenable).',
  },
  'document-production-failed': {
    status: 400,
    retryable: false,
    description: 'A document could not be produced from its template.',
  },
  'unsupported-file-type': {
    status: 400,
    retryable: false,
    description: 'The bytes are neither a PDF nor a real .docx.',
  },
} as const satisfies Record<string, FailureSpec>;

export interface FailureSpec {
  /** HTTP status the spec gives this slug. */
  status: number;
  /** Whether the same request may succeed when tried again unchanged. */
  retryable: boolean;
  description: string;
}

export type FailureSlug = keyof typeof FAILURES;

export function isFailureSlug(value: unknown): value is FailureSlug {
  return typeof value === 'string' && Object.hasOwn(FAILURES, value);
}
