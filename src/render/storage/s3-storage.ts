import { createHash, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { ByteRange } from './byte-range.js';
import { typeOfKey } from './content-types.js';
import { isNotFound, storeFailure } from './s3-errors.js';
import { loadS3Presigner, loadS3Sdk, type S3Sdk } from './s3-sdk.js';
import { checkKey, type Storage, type StoredObject } from './storage.js';
import type { StoreLocation } from './storage-unavailable.js';
import { asBuffer } from '../../base/util/index.js';

export interface S3StorageOptions {
  /** The bucket, which must exist: docpipe never creates one. */
  bucket: string;
  /** An S3-compatible store's URL (MinIO, Ceph, R2...). @defaultValue undefined: AWS, by region */
  endpoint?: string;
  /**
   * A folder of the bucket that holds this installation's objects ('' or ending in '/'); callers
   * never see it, their keys stay docpipe's keys. @defaultValue ''
   */
  prefix?: string;
  /** The bucket in the URL's path rather than its host name. @defaultValue false */
  forcePathStyle?: boolean;
  /** @defaultValue the AWS way: AWS_REGION, then the profile's region */
  region?: string;
  /** @defaultValue the AWS credential chain (AWS_* variables, profile, the machine's role) */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Keys asked for per listing request; S3 answers at most 1000. @defaultValue 1000 */
  listPageSize?: number;
}

/** What a pre-signed download answers besides the bytes. */
export interface PresignedGetOptions {
  /** The `Content-Type` S3 answers with. @defaultValue the object's own */
  contentType?: string;
  /** The `Content-Disposition` S3 answers with (the document's name). @defaultValue none */
  contentDisposition?: string;
}

/** Long enough for a store across a region; a store that does not connect by then is away. */
export const S3_CONNECT_TIMEOUT_MS = 5_000;
/**
 * A request whose socket is silent this long has stalled: it fails rather than hold a job or an
 * HTTP request for ever. Not a limit on a whole transfer, so large documents still stream.
 */
export const S3_SOCKET_IDLE_TIMEOUT_MS = 60_000;
/** SigV4 pre-signed URLs work for at most 7 days. */
export const MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;

/**
 * Storage in an S3 bucket (AWS or any S3-compatible store), under an optional prefix. A PUT is
 * atomic on S3: a reader sees the whole object or none, as with local storage's rename. Each
 * object carries its SHA-256 twice: as the checksum S3 verifies on upload, and as metadata that
 * `stat` gives back (a strong validator for downloads, without reading the object).
 */
export class S3Storage implements Storage {
  readonly bucket: string;
  readonly prefix: string;
  readonly location: StoreLocation;
  private readonly pageSize: number;
  private readonly fail = (err: unknown): never => {
    throw storeFailure(err, this.location);
  };

  private constructor(
    private readonly sdk: S3Sdk,
    private readonly client: S3Client,
    private readonly options: S3StorageOptions,
  ) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
    if (this.prefix !== '') checkKey(this.prefix.replace(/\/$/, ''));
    this.location = { bucket: options.bucket, endpoint: options.endpoint };
    this.pageSize = options.listPageSize ?? 1000;
  }

  /** Loads the AWS SDK (only now: local installations never do) and makes the client. */
  static async open(options: S3StorageOptions): Promise<S3Storage> {
    const sdk = await loadS3Sdk();
    const client = new sdk.S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      // Each PUT carries its SHA-256 (ChecksumSHA256); a second checksum the SDK would compute
      // by default (CRC32) costs CPU and is not understood by every S3-compatible store.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: S3_CONNECT_TIMEOUT_MS,
        socketTimeout: S3_SOCKET_IDLE_TIMEOUT_MS,
      },
    });
    return new S3Storage(sdk, client, options);
  }

  /**
   * The bucket is there and takes docpipe's credentials; else StorageUnavailableError saying
   * what to fix. Run at start-up, so that a deployment fails before it takes work.
   */
  async checkBucket(): Promise<void> {
    await this.client
      .send(new this.sdk.HeadBucketCommand({ Bucket: this.bucket }))
      .catch((err: unknown) => {
        throw storeFailure(err, this.location, true);
      });
  }

  async put(key: string, data: Uint8Array, type: string): Promise<StoredObject> {
    const digest = createHash('sha256').update(data).digest();
    await this.client
      .send(
        new this.sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Body: data,
          ContentType: type,
          ChecksumSHA256: digest.toString('base64'),
          Metadata: { sha256: digest.toString('hex') },
        }),
      )
      .catch(this.fail);
    return {
      key,
      bytes: data.byteLength,
      type,
      modified: new Date(),
      sha256: digest.toString('hex'),
    };
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      const out = await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      const bytes = await out.Body!.transformToByteArray();
      return asBuffer(bytes);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      return this.fail(err);
    }
  }

  /** The object's bytes as a stream, whole or one range, without holding them in memory. */
  async readStream(key: string, range?: ByteRange): Promise<Readable | undefined> {
    try {
      const out = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      // In Node the SDK's body is the response's own IncomingMessage.
      return out.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      return this.fail(err);
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    const head = await this.head(key);
    if (!head) return undefined;
    return {
      key,
      bytes: head.ContentLength ?? 0,
      type: head.ContentType ?? typeOfKey(key),
      modified: head.LastModified ?? new Date(),
      ...(head.Metadata?.sha256 ? { sha256: head.Metadata.sha256 } : {}),
    };
  }

  async delete(key: string): Promise<void> {
    await this.client
      .send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }))
      .catch(this.fail);
  }

  /**
   * A server-side copy (CopyObject): the bytes stay in the store, its type and metadata (the
   * sha256) go with them. False when `from` is not there.
   */
  async copy(from: string, to: string): Promise<boolean> {
    try {
      await this.client.send(
        new this.sdk.CopyObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(to),
          CopySource: `${this.bucket}/${this.objectKey(from)}`,
          MetadataDirective: 'COPY',
        }),
      );
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      return this.fail(err);
    }
  }

  /**
   * S3 has no way to set LastModified but to write the object: it is copied onto itself, which
   * S3 allows when the metadata is replaced, so its type and metadata are given again as they
   * are. No bytes travel through docpipe.
   */
  async touch(key: string): Promise<void> {
    const head = await this.head(key);
    if (!head) return;
    const objectKey = this.objectKey(key);
    await this.client
      .send(
        new this.sdk.CopyObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          CopySource: `${this.bucket}/${objectKey}`,
          MetadataDirective: 'REPLACE',
          ContentType: head.ContentType,
          Metadata: head.Metadata,
        }),
      )
      .catch((err: unknown) => {
        // Deleted between the two requests: nothing left to touch, as for a missing object.
        if (!isNotFound(err)) this.fail(err);
      });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const slash = prefix.lastIndexOf('/');
    if (slash > 0) checkKey(prefix.slice(0, slash));
    let token: string | undefined;
    do {
      const page = await this.client
        .send(
          new this.sdk.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix + prefix,
            MaxKeys: this.pageSize,
            ContinuationToken: token,
          }),
        )
        .catch(this.fail);
      for (const object of page.Contents ?? []) {
        const key = object.Key!.slice(this.prefix.length);
        // Whatever else shares the bucket under this prefix is not docpipe's to list.
        if (!isKey(key)) continue;
        yield {
          key,
          bytes: object.Size ?? 0,
          type: typeOfKey(key),
          modified: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * A URL S3 itself serves the object at until `expiresAt` (at most 7 days ahead), to whoever
   * holds it. Made with the credentials docpipe has now: temporary ones (a role's) end it early.
   */
  async presignGet(
    key: string,
    expiresAt: Date,
    options: PresignedGetOptions = {},
    signingDate = new Date(),
  ): Promise<string> {
    const seconds = Math.ceil((expiresAt.getTime() - signingDate.getTime()) / 1000);
    if (seconds < 1 || seconds > MAX_PRESIGNED_SECONDS)
      throw new Error(
        `a pre-signed S3 URL works for 1 s to 7 days; asked for ${seconds} s: set DOCPIPE_SIGNED_URL_TTL_S to at most ${MAX_PRESIGNED_SECONDS}`,
      );
    const { getSignedUrl } = await loadS3Presigner();
    const command = new this.sdk.GetObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ResponseContentType: options.contentType,
      ResponseContentDisposition: options.contentDisposition,
    });
    return getSignedUrl(this.client, command, { expiresIn: seconds, signingDate });
  }

  /**
   * The key of a pre-signed URL this storage made and that still works at `now`; undefined for
   * any other URL. The URL is made again from its own date, lifetime and answer headers: any
   * change to it (key, expiry, a parameter) gives another signature. URLs signed with
   * credentials docpipe no longer has (rotated keys, an ended role session) are no longer its.
   */
  async verifyPresignedGet(url: string, now = new Date()): Promise<string | undefined> {
    let given: URL;
    try {
      given = new URL(url);
    } catch {
      return undefined;
    }
    const q = given.searchParams;
    const signingDate = amzDate(q.get('X-Amz-Date'));
    const seconds = Number(q.get('X-Amz-Expires'));
    if (!signingDate || !Number.isSafeInteger(seconds) || !q.get('X-Amz-Signature'))
      return undefined;
    const key = this.keyOfPath(given.pathname);
    if (!key) return undefined;
    const expiresAt = new Date(signingDate.getTime() + seconds * 1000);
    if (expiresAt <= now) return undefined;
    const again = await this.presignGet(
      key,
      expiresAt,
      {
        contentType: q.get('response-content-type') ?? undefined,
        contentDisposition: q.get('response-content-disposition') ?? undefined,
      },
      signingDate,
    ).catch(() => undefined);
    return again !== undefined && sameUrl(new URL(again), given) ? key : undefined;
  }

  /** Where an object is, for people: `s3://<bucket>/<prefix><key>`. */
  locationOf(key: string): string {
    return `s3://${this.bucket}/${this.objectKey(key)}`;
  }

  /** Ends the client's idle connections (a process that ends need not call it). */
  close(): void {
    this.client.destroy();
  }

  private async head(key: string) {
    try {
      return await this.client.send(
        new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
    } catch (err) {
      if (isNotFound(err)) return undefined;
      return this.fail(err);
    }
  }

  private objectKey(key: string): string {
    return this.prefix + checkKey(key);
  }

  /** The docpipe key an object URL's path names, in the bucket's path or host name style. */
  private keyOfPath(pathname: string): string | undefined {
    const bucketPath = this.options.forcePathStyle ? `/${this.bucket}/` : '/';
    const objectPath = pathname.startsWith(bucketPath) ? pathname.slice(bucketPath.length) : '';
    if (!objectPath.startsWith(this.prefix)) return undefined;
    const key = objectPath.slice(this.prefix.length);
    return isKey(key) ? key : undefined;
  }
}

function isKey(key: string): boolean {
  try {
    checkKey(key);
    return true;
  } catch {
    return false;
  }
}

/** `X-Amz-Date` (`yyyyMMddTHHmmssZ`) as a Date. */
function amzDate(text: string | null): Date | undefined {
  const m = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(text ?? '');
  if (!m) return undefined;
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Same origin, path and query parameters (in any order), and nothing else; the signatures
 * compared in constant time.
 */
function sameUrl(made: URL, given: URL): boolean {
  if (given.hash || given.username || given.password) return false;
  if (made.origin !== given.origin || made.pathname !== given.pathname) return false;
  const unsigned = (u: URL) =>
    [...u.searchParams]
      .filter(([k]) => k !== 'X-Amz-Signature')
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join('&');
  if (unsigned(made) !== unsigned(given)) return false;
  const a = Buffer.from(made.searchParams.get('X-Amz-Signature') ?? '');
  const b = Buffer.from(given.searchParams.getAll('X-Amz-Signature').join(','));
  return a.length === b.length && timingSafeEqual(a, b);
}
