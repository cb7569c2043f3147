/**
 * The one failure registry. Slugs are exactly those of the service spec (section 7.2), every one
 * of them (test/unit/parity-slugs.test.ts holds the two together); they are what crosses threads,
 * processes and the queue, and the error class is rebuilt from them on the other side. The
 * document pipeline raises the first six; the keys, companies and cases ones are the HTTP
 * service's. `document-not-found` is 404 on the documents endpoints; on case creation the spec
 * answers it with 400, which is the adapter's to say.
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
  'missing-token': {
    status: 401,
    retryable: false,
    description: 'No Authorization header.',
  },
  'invalid-token': {
    status: 401,
    retryable: false,
    description: 'The key does not exist.',
  },
  'key-revoked': {
    status: 401,
    retryable: false,
    description: 'The key was revoked.',
  },
  'key-expired': {
    status: 401,
    retryable: false,
    description: 'The key is past its expiry.',
  },
  'company-disabled': {
    status: 403,
    retryable: false,
    description: 'The company account is disabled.',
  },
  'key-has-no-user': {
    status: 403,
    retryable: false,
    description: 'The key has nobody to attribute cases to.',
  },
  'sender-not-in-company': {
    status: 403,
    retryable: false,
    description: 'The webflow sender is no longer a company member.',
  },
  'form-not-found': {
    status: 404,
    retryable: false,
    description: 'No published web-flow-enabled form in the company.',
  },
  'webflow-not-found': {
    status: 404,
    retryable: false,
    description: 'No accessible webflow with the id.',
  },
  'idempotency-conflict': {
    status: 409,
    retryable: false,
    description: 'A webflow request used the idempotency key with a different payload.',
  },
  'case-not-found': {
    status: 404,
    retryable: false,
    description: 'No case with that id in the company.',
  },
  'invalid-folder': {
    status: 400,
    retryable: false,
    description: 'No folder with that name or id.',
  },
  'message-template-not-found': {
    status: 400,
    retryable: false,
    description: 'A case-level or recipient messageTemplateId was not found.',
  },
  'preset-not-found': {
    status: 400,
    retryable: false,
    description: 'The presetId is not in the company.',
  },
  'sender-user-not-found': {
    status: 400,
    retryable: false,
    description: 'The senderId or senderEmail is not a company member.',
  },
  'invalid-signing-page-logo': {
    status: 400,
    retryable: false,
    description: 'settings.logo is neither PNG nor JPEG, nor a service URL.',
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
