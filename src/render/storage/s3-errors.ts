import { StorageUnavailableError, type StoreLocation } from './storage-unavailable.js';

/** What the SDK's errors carry: S3's error code as `name`, the HTTP status in `$metadata`. */
interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** S3's codes for credentials it does not accept, or that may not touch the bucket. */
const REFUSED = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'Forbidden',
  'InvalidToken',
  'ExpiredToken',
  'InvalidClientTokenId',
]);

/** Socket and DNS failures: nothing answers at the endpoint. */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
]);

/**
 * The object is not there: S3 answers 404 (HeadObject's has no body, so no code). A missing
 * bucket is no missing object: NoSuchBucket is the store's failure.
 */
export function isNotFound(err: unknown): boolean {
  const e = err as SdkError;
  if (e.name === 'NoSuchBucket') return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/**
 * The SDK's error as StorageUnavailableError when it means the store is not usable (no bucket,
 * credentials refused, nothing answering, no region); any other error as it is.
 * `missingBucketIs404`: a 404 without a body (HeadBucket's) means the bucket is missing.
 */
export function storeFailure(err: unknown, at: StoreLocation, missingBucketIs404 = false): unknown {
  const e = err as SdkError;
  const status = e.$metadata?.httpStatusCode;
  if (e.name === 'NoSuchBucket' || (missingBucketIs404 && status === 404))
    return StorageUnavailableError.bucketMissing(at, err);
  if (REFUSED.has(e.name ?? '') || status === 403)
    return StorageUnavailableError.credentialsRefused(
      at,
      e.name && e.name !== 'Unknown' ? e.name : `HTTP ${status}`,
      err,
    );
  if (e.name === 'CredentialsProviderError') return StorageUnavailableError.noCredentials(at, err);
  if (/^Region (is missing|not accepted)/.test(e.message ?? ''))
    return StorageUnavailableError.regionMissing(at, err);
  if (NETWORK.has(e.code ?? '') || e.name === 'TimeoutError')
    return StorageUnavailableError.unreachable(at, e.code ?? e.name ?? 'timeout', err);
  return err;
}
