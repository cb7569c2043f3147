import { createHash, randomBytes } from 'node:crypto';

/**
 * An API key as a caller holds it: `dp_live_<id>_<secret>` made in production,
 * `dp_test_<id>_<secret>` made in the test environment (spec 5.4), and `dp_<id>_<secret>` made
 * before keys named their environment, which stays a production key. The recognisable prefix
 * makes a leaked key easy to find (secret scanners, grep over logs and repositories) and tells a
 * person at a glance which environment a key is for; the id in the clear lets docpipe find the
 * one stored record without scanning, and lets a person name the key (list, revoke) without ever
 * handling its secret.
 */
export const KEY_TOKEN_PREFIX = 'dp';

/**
 * Which deployment a key belongs to (`DOCPIPE_ENVIRONMENT`): each environment is an installation
 * of its own, with its own database, and a key works only in the one that made it.
 */
export type KeyEnvironment = 'production' | 'test';

export const KEY_ENVIRONMENTS: readonly KeyEnvironment[] = ['production', 'test'];

/** The word after `dp_` of a key made in each environment. */
const MARKS: Record<KeyEnvironment, string> = { production: 'live', test: 'test' };

/** 64 bits: ids are public, they only need to stay unique among one installation's keys. */
const ID_BYTES = 8;
/** 256 bits from the system's CSPRNG: far past any guessing, online or against a stolen hash. */
const SECRET_BYTES = 32;

const ID = /^[0-9a-f]{16}$/;
/** The mark is absent in a key made before keys named their environment. */
const TOKEN = /^dp_(?:(live|test)_)?([0-9a-f]{16})_[0-9a-f]{64}$/;

export interface NewToken {
  id: string;
  /** The whole key, shown once to whoever created it and stored nowhere. */
  token: string;
}

/** How a key made in `environment` starts: `dp_live_` or `dp_test_`. */
export function keyTokenPrefix(environment: KeyEnvironment): string {
  return `${KEY_TOKEN_PREFIX}_${MARKS[environment]}_`;
}

export function newToken(environment: KeyEnvironment = 'production'): NewToken {
  const id = randomBytes(ID_BYTES).toString('hex');
  const secret = randomBytes(SECRET_BYTES).toString('hex');
  return { id, token: `${keyTokenPrefix(environment)}${id}_${secret}` };
}

/** The id of a well-formed key; undefined for anything that cannot be one of docpipe's keys. */
export function tokenId(token: string): string | undefined {
  return TOKEN.exec(token)?.[2];
}

/**
 * The environment a well-formed key was made in, read from its prefix alone (a key without a
 * mark is a production key); undefined for anything that cannot be one of docpipe's keys.
 */
export function tokenEnvironment(token: string): KeyEnvironment | undefined {
  const m = TOKEN.exec(token);
  if (!m) return undefined;
  return m[1] === 'test' ? 'test' : 'production';
}

export function isKeyId(value: string): boolean {
  return ID.test(value);
}

/**
 * What is stored instead of the key. SHA-256, not a password hash (bcrypt, scrypt, argon2): those
 * are slow on purpose to protect low-entropy secrets people choose. A 256-bit random secret has
 * no dictionary to try and cannot be brute-forced from its hash, so slowness would add nothing
 * but CPU on every request. The hash is there so that a copy of the database (a dump, a backup,
 * a replica) holds nothing that authenticates.
 */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
