import { describe, expect, it } from 'vitest';
import { isNotFound, storeFailure } from '../../src/render/storage/s3-errors.js';
import { StorageUnavailableError } from '../../src/render/storage/index.js';

/** An error as the AWS SDK throws it: S3's code as its name, the status in $metadata. */
function sdkError(name: string, status?: number, fields: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(fields.message as string | undefined), {
    name,
    $metadata: { httpStatusCode: status },
    ...fields,
  });
}

const at = { bucket: 'docs', endpoint: 'http://store:9000' };

function reasonOf(err: unknown, missingBucketIs404 = false): string | undefined {
  const mapped = storeFailure(err, at, missingBucketIs404);
  return mapped instanceof StorageUnavailableError ? mapped.reason : undefined;
}

describe('S3 errors', () => {
  it.each([
    [sdkError('NoSuchBucket', 404), 'bucket-missing'],
    [sdkError('InvalidAccessKeyId', 403), 'credentials-refused'],
    [sdkError('SignatureDoesNotMatch', 403), 'credentials-refused'],
    [sdkError('ExpiredToken', 400), 'credentials-refused'],
    [sdkError('Unknown', 403), 'credentials-refused'],
    [sdkError('CredentialsProviderError'), 'credentials-refused'],
    [sdkError('Error', undefined, { code: 'ECONNREFUSED' }), 'unreachable'],
    [sdkError('Error', undefined, { code: 'ENOTFOUND' }), 'unreachable'],
    [sdkError('TimeoutError'), 'unreachable'],
    [sdkError('Error', undefined, { message: 'Region is missing' }), 'misconfigured'],
  ])('%s is the store being unavailable: %s', (err, reason) => {
    expect(reasonOf(err)).toBe(reason);
  });

  it('leaves other failures as they are', () => {
    const slow = sdkError('SlowDown', 503);
    expect(storeFailure(slow, at)).toBe(slow);
    expect(reasonOf(sdkError('NoSuchKey', 404))).toBeUndefined();
  });

  it('takes a bare 404 for a missing bucket only where the bucket was asked for', () => {
    expect(reasonOf(sdkError('NotFound', 404), true)).toBe('bucket-missing');
    expect(reasonOf(sdkError('NotFound', 404))).toBeUndefined();
  });

  it('knows a missing object from a missing bucket', () => {
    expect(isNotFound(sdkError('NoSuchKey', 404))).toBe(true);
    expect(isNotFound(sdkError('NotFound', 404))).toBe(true);
    expect(isNotFound(sdkError('NoSuchBucket', 404))).toBe(false);
    expect(isNotFound(sdkError('AccessDenied', 403))).toBe(false);
  });

  it('names the bucket and the endpoint, and what to do', () => {
    const err = storeFailure(sdkError('InvalidAccessKeyId', 403), at) as StorageUnavailableError;
    expect(err.message).toBe(
      `S3 at http://store:9000 refused docpipe's credentials for bucket "docs" (InvalidAccessKeyId): give docpipe credentials allowed to read, write, list and delete in that bucket, the AWS way (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or the machine's role)`,
    );
    expect(err.code).toBe('credentials-refused');
    const aws = storeFailure(sdkError('NoSuchBucket', 404), { ...at, endpoint: undefined });
    expect((aws as Error).message).toContain('does not exist at AWS (the region in AWS_REGION)');
  });
});
