import { createHash, randomBytes } from 'node:crypto';

/**
 * An API key as a caller holds it: `dp_<id>_<secret>`. The recognisable prefix makes a leaked
 * key easy to find (secret scanners, grep over logs and repositories); the id in the clear lets
 * docpipe find the one stored record without scanning, and lets a person name the key (list,
 * revoke) without ever handling its secret.
 */
export const KEY_TOKEN_PREFIX = 'dp';

/** 64 bits: ids are public, they only need to stay unique among one installation's keys. */
const ID_BYTES = 8;
/** 256 bits from the system's CSPRNG: far past any guessing, online or against a stolen hash. */
const SECRET_BYTES = 32;

const ID = /^[0-9a-f]{16}$/;
const TOKEN = /^dp_([0-9a-f]{16})_[0-9a-f]{64}$/;

export interface NewToken {
  id: string;
  /** The whole key, shown once to whoever created it and stored nowhere. */
  token: string;
}

export function newToken(): NewToken {
  const id = randomBytes(ID_BYTES).toString('hex');
  const secret = randomBytes(SECRET_BYTES).toString('hex');
  return { id, token: `${KEY_TOKEN_PREFIX}_${id}_${secret}` };
}

/** The id of a well-formed key; undefined for anything that cannot be one of docpipe's keys. */
export function tokenId(token: string): string | undefined {
  return TOKEN.exec(token)?.[1];
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
