/** Where documents are stored: `DOCPIPE_STORAGE` and, for S3, `DOCPIPE_S3_*`. */
export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      /** `DOCPIPE_S3_BUCKET`: the bucket, which must exist (docpipe never creates it). */
      bucket: string;
      /**
       * `DOCPIPE_S3_ENDPOINT`: an S3-compatible store (MinIO, Ceph, R2...). @defaultValue
       * undefined: AWS itself, by region
       */
      endpoint: string | undefined;
      /** `DOCPIPE_S3_PREFIX`: a folder in the bucket for this installation ('' or ending in '/'). @defaultValue '' */
      prefix: string;
      /**
       * `DOCPIPE_S3_FORCE_PATH_STYLE`: `bucket` in the path, not in the host name, as most
       * S3-compatible stores want. @defaultValue true when an endpoint is given
       */
      forcePathStyle: boolean;
    };

export const STORAGE_KINDS = ['local', 's3'] as const;

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX = /^([a-z0-9][a-z0-9._-]*\/)*$/;

export function storageConfigFrom(env: NodeJS.ProcessEnv, problems: string[]): StorageConfig {
  const kind = env.DOCPIPE_STORAGE || 'local';
  // Read whatever the kind: a variable set for S3 and then ignored would be read by nobody.
  const given = {
    bucket: env.DOCPIPE_S3_BUCKET,
    endpoint: env.DOCPIPE_S3_ENDPOINT,
    prefix: env.DOCPIPE_S3_PREFIX,
    pathStyle: env.DOCPIPE_S3_FORCE_PATH_STYLE,
  };
  if (kind === 'local') return { kind };
  if (kind !== 's3') {
    problems.push(`DOCPIPE_STORAGE must be local or s3 (got "${kind}")`);
    return { kind: 'local' };
  }
  const bucket = given.bucket ?? '';
  if (!BUCKET.test(bucket))
    problems.push(
      bucket === ''
        ? 'DOCPIPE_S3_BUCKET is required with DOCPIPE_STORAGE=s3: name the bucket docpipe stores documents in'
        : `DOCPIPE_S3_BUCKET must be an S3 bucket name: 3 to 63 lower-case letters, digits, dots or hyphens (got "${bucket}")`,
    );
  const endpoint = given.endpoint ? given.endpoint.replace(/\/+$/, '') : undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]+$/.test(endpoint))
    problems.push(
      `DOCPIPE_S3_ENDPOINT must be an http:// or https:// URL with no path (got "${endpoint}")`,
    );
  let prefix = given.prefix ?? '';
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  if (!PREFIX.test(prefix))
    problems.push(
      `DOCPIPE_S3_PREFIX must be folder names of lower-case letters, digits, ".", "_" or "-" separated by "/" (got "${given.prefix}")`,
    );
  const pathStyleText = given.pathStyle;
  if (pathStyleText && !['true', 'false', '1', '0'].includes(pathStyleText))
    problems.push(`DOCPIPE_S3_FORCE_PATH_STYLE must be true or false (got "${pathStyleText}")`);
  const forcePathStyle = pathStyleText
    ? pathStyleText === 'true' || pathStyleText === '1'
    : endpoint !== undefined;
  return { kind, bucket, endpoint, prefix, forcePathStyle };
}
