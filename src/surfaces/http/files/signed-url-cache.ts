import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A signed URL a server issued (docpipe's own HMAC URL, or S3's pre-signed one) and may hand out
 * again while it still has time left.
 */
export interface IssuedUrl {
  url: string;
  /** How long the URL may be handed out again, in milliseconds; past that a new one is issued. */
  reuseForMs: number;
}

/**
 * An upload as a signed URL is issued for it: its stored bytes and the name it was uploaded
 * under. Two uploads of the same bytes under two names are two uploads, with a URL each.
 */
export interface UploadRef {
  key: string;
  name: string;
}

/**
 * The signed URLs issued per upload, shared by every HTTP server (they share Redis), so that
 * asking twice for the same upload answers the same URL (`cached: true`) while it has time left.
 */
export interface SignedUrlCache {
  /** The URL kept for `upload`, or a new one from `issue`, kept from now on. */
  reuseOrIssue(
    upload: UploadRef,
    issue: () => IssuedUrl | Promise<IssuedUrl>,
  ): Promise<{ url: string; cached: boolean }>;
}

/**
 * The cache in Redis: one string per key with the reuse window as its TTL, so that Redis forgets
 * it exactly when it must no longer be reused. `SET NX` makes two servers issuing at once agree on
 * one URL.
 */
export class RedisSignedUrlCache implements SignedUrlCache {
  /**
   * @param redis - a connection of the server's own (commands fail fast when Redis is away)
   * @param prefix - the deployment's key prefix; keys are
   *   `<prefix>:signed-url:<storage key>:<sha256 of the name>` (the name hashed: a key of bounded
   *   length whatever the name)
   */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async reuseOrIssue(
    upload: UploadRef,
    issue: () => IssuedUrl | Promise<IssuedUrl>,
  ): Promise<{ url: string; cached: boolean }> {
    const name = signedUrlCacheKey(this.prefix, upload);
    const kept = await this.redis.get(name);
    if (kept) return { url: kept, cached: true };
    const issued = await issue();
    const set = await this.redis.set(name, issued.url, 'PX', Math.max(1, issued.reuseForMs), 'NX');
    if (set === 'OK') return { url: issued.url, cached: false };
    // Another server issued one between our read and write: theirs is the one to hand out.
    const winner = await this.redis.get(name);
    return winner ? { url: winner, cached: true } : { url: issued.url, cached: false };
  }
}

/** The Redis key of an upload's signed URL. */
export function signedUrlCacheKey(prefix: string, upload: UploadRef): string {
  const name = createHash('sha256').update(upload.name).digest('hex');
  return `${prefix}:signed-url:${upload.key}:${name}`;
}
