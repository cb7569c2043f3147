import type { Outage } from '../../base/errors/index.js';

/** Why the configured object store cannot be used. */
export type StorageUnavailableReason =
  'bucket-missing' | 'credentials-refused' | 'unreachable' | 'misconfigured';

/** Where a store is, for a message: the bucket and the endpoint (or AWS itself). */
export interface StoreLocation {
  bucket: string;
  /** `DOCPIPE_S3_ENDPOINT`; undefined is AWS itself, by region. */
  endpoint: string | undefined;
}

/**
 * The object store is not there for docpipe: its bucket is missing, it refuses docpipe's
 * credentials, or it does not answer. Not a document's failure (no slug of the registry fits,
 * and the same request may work once the store is fixed), so it is its own class, as
 * QueueUnavailableError is: the CLI reports it with exit status 3, `/readyz` with its `code`
 * (the reason, never the bucket or endpoint, since /readyz answers anyone).
 */
export class StorageUnavailableError extends Error implements Outage {
  override readonly name = 'StorageUnavailableError';
  readonly outage = 'storage-unavailable';

  constructor(
    readonly reason: StorageUnavailableReason,
    readonly location: StoreLocation,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The reason, where a file system error has its code (`/readyz` shows it). */
  get code(): StorageUnavailableReason {
    return this.reason;
  }

  static bucketMissing(at: StoreLocation, cause?: unknown): StorageUnavailableError {
    return new StorageUnavailableError(
      'bucket-missing',
      at,
      `the S3 bucket "${at.bucket}" does not exist at ${where(at)}: create it (docpipe never creates buckets), or set DOCPIPE_S3_BUCKET to one that exists`,
      { cause },
    );
  }

  static credentialsRefused(
    at: StoreLocation,
    code: string,
    cause?: unknown,
  ): StorageUnavailableError {
    return new StorageUnavailableError(
      'credentials-refused',
      at,
      `S3 at ${where(at)} refused docpipe's credentials for bucket "${at.bucket}" (${code}): give docpipe credentials allowed to read, write, list and delete in that bucket, the AWS way (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or the machine's role)`,
      { cause },
    );
  }

  static noCredentials(at: StoreLocation, cause?: unknown): StorageUnavailableError {
    return new StorageUnavailableError(
      'credentials-refused',
      at,
      `no AWS credentials found for the S3 bucket "${at.bucket}" at ${where(at)}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run on a machine with a role`,
      { cause },
    );
  }

  static unreachable(at: StoreLocation, code: string, cause?: unknown): StorageUnavailableError {
    return new StorageUnavailableError(
      'unreachable',
      at,
      `cannot reach S3 at ${where(at)} for bucket "${at.bucket}" (${code}): check DOCPIPE_S3_ENDPOINT and that the store is running, then try again`,
      { cause },
    );
  }

  static regionMissing(at: StoreLocation, cause?: unknown): StorageUnavailableError {
    return new StorageUnavailableError(
      'misconfigured',
      at,
      `no valid AWS region for the S3 bucket "${at.bucket}" at ${where(at)}: set AWS_REGION (the bucket's region on AWS; us-east-1 suits most S3-compatible stores)`,
      { cause },
    );
  }
}

export function isStorageUnavailableError(err: unknown): err is StorageUnavailableError {
  return err instanceof StorageUnavailableError;
}

function where(at: StoreLocation): string {
  return at.endpoint ?? 'AWS (the region in AWS_REGION)';
}
