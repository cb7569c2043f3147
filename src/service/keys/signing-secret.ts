import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * The HMAC secret of signed URLs when DOCPIPE_SIGNING_SECRET is not set: made once, by whichever
 * server comes first, and kept in the shared Redis, so that a URL one `docpipe serve` signed
 * works on every other one, and across restarts. Setting the variable instead keeps the secret
 * out of Redis (and lets it outlive a Redis that loses its data).
 */
export async function sharedSigningSecret(redis: Redis, prefix: string): Promise<string> {
  const key = `${prefix}:signing-secret`;
  // NX: two servers starting at once agree on the first one's secret.
  await redis.set(key, randomBytes(32).toString('hex'), 'NX');
  const secret = await redis.get(key);
  if (secret === null || secret.length < 16)
    throw new Error(`the signing secret at ${key} in Redis is missing or too short`);
  return secret;
}
