import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * CPR numbers at rest: AES-256-GCM with a random 12-byte nonce per value. A stored value is
 *
 *     format (1 byte, 1) | key id (1 byte) | nonce (12 bytes) | ciphertext | tag (16 bytes)
 *
 * The key id is the first byte of the key's fingerprint (SHA-256 of a label and the key), so
 * that a key can be rotated later: a reader holding the old and the new key picks the one whose
 * id a value names, and the tag proves it right (an id shared by chance costs one more try).
 * The format byte, the key id and the context (the company the number belongs to) are
 * authenticated with the ciphertext: a value moved to another company's row, or whose header
 * was altered, does not decrypt. Nothing here logs, and no error carries the number.
 */
export const CPR_FORMAT_V1 = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 2;
const KEY_BYTES = 32;

/** A stored value that does not decrypt: altered, another context's, or another key's. */
export class CprDecryptError extends Error {
  override readonly name = 'CprDecryptError';
}

export class CprCipher {
  private readonly keys: { id: number; key: Buffer }[];

  /**
   * @param key the current key (32 bytes): every new value is encrypted with it.
   * @param previous keys retired by a rotation, still read.
   */
  constructor(key: Buffer, previous: readonly Buffer[] = []) {
    this.keys = [key, ...previous].map((k) => {
      if (k.length !== KEY_BYTES)
        throw new Error(`a CPR key has ${KEY_BYTES} bytes, not ${k.length}`);
      return { id: keyId(k), key: Buffer.from(k) };
    });
  }

  /** The current key's id, as its values carry it. */
  get keyId(): number {
    return this.keys[0]!.id;
  }

  /** `cpr` encrypted for `context` (the company id): a new nonce each time. */
  encrypt(cpr: string, context: string): Buffer {
    const { id, key } = this.keys[0]!;
    const header = Buffer.from([CPR_FORMAT_V1, id]);
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(header, context));
    const body = Buffer.concat([cipher.update(cpr, 'utf8'), cipher.final()]);
    return Buffer.concat([header, nonce, body, cipher.getAuthTag()]);
  }

  /** The number `value` holds, when it was encrypted for `context` with one of the keys. */
  decrypt(value: Buffer, context: string): string {
    if (value.length < HEADER_BYTES + NONCE_BYTES + TAG_BYTES)
      throw new CprDecryptError('the stored CPR value is too short to be one');
    if (value[0] !== CPR_FORMAT_V1)
      throw new CprDecryptError(
        `the stored CPR value has format ${value[0]}, not ${CPR_FORMAT_V1}`,
      );
    const candidates = this.keys.filter((k) => k.id === value[1]);
    if (candidates.length === 0)
      throw new CprDecryptError(
        `the stored CPR value was encrypted with key id ${value[1]}, which this service does not hold`,
      );
    const header = value.subarray(0, HEADER_BYTES);
    const nonce = value.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
    const tag = value.subarray(value.length - TAG_BYTES);
    const body = value.subarray(HEADER_BYTES + NONCE_BYTES, value.length - TAG_BYTES);
    for (const { key } of candidates) {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(header, context));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        // The tag did not verify with this key: another one of the same id may hold it.
      }
    }
    throw new CprDecryptError(
      'the stored CPR value does not verify: it was altered, or belongs to another company or key',
    );
  }
}

/** One byte of the key's fingerprint: names the key in its values without revealing it. */
function keyId(key: Buffer): number {
  return createHash('sha256').update('docpipe cpr key id\0').update(key).digest()[0]!;
}

function additionalData(header: Buffer, context: string): Buffer {
  return Buffer.concat([header, Buffer.from(context, 'utf8')]);
}
