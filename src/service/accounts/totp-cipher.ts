import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * TOTP secrets at rest (`logins.totp_secret`): AES-256-GCM under a key derived with HKDF-SHA256
 * from the server's signing secret (DOCPIPE_SIGNING_SECRET, else the one every server shares in
 * Redis), so that a copy of the database alone yields no secret, and no second key has to be
 * configured. The stored text is
 *
 *     v1.<base64url: nonce (12 bytes) | ciphertext | tag (16 bytes)>
 *
 * and the login's id is authenticated with it: a value copied onto another login's row does not
 * decrypt. Nothing here logs, and no error carries the secret.
 */
const FORMAT = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The HKDF label: the signing secret's other uses (signed URLs, CSRF) never see this key. */
const INFO = 'docpipe totp secret v1';

/** A stored value that does not decrypt: altered, another login's, or another signing secret's. */
export class TotpSecretDecryptError extends Error {
  override readonly name = 'TotpSecretDecryptError';
}

export class TotpCipher {
  private readonly key: Buffer;

  constructor(signingSecret: string) {
    if (signingSecret.length < 16)
      throw new Error('the signing secret has fewer than 16 characters: no key is derived from it');
    this.key = Buffer.from(hkdfSync('sha256', signingSecret, 'docpipe', INFO, 32));
  }

  /** `secret` (base32) encrypted for `loginId`: a new nonce each time. */
  encrypt(secret: string, loginId: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(loginId));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${FORMAT}.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The secret `stored` holds, when it was encrypted for `loginId` under this key. */
  decrypt(stored: string, loginId: string): string {
    const [format, data] = stored.split('.');
    if (format !== FORMAT || data === undefined)
      throw new TotpSecretDecryptError(`the stored TOTP secret is not of format ${FORMAT}`);
    const bytes = Buffer.from(data, 'base64url');
    if (bytes.length < NONCE_BYTES + TAG_BYTES + 1)
      throw new TotpSecretDecryptError('the stored TOTP secret is too short to be one');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(additionalData(loginId));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new TotpSecretDecryptError(
        'the stored TOTP secret does not verify: it was altered, belongs to another login, or the signing secret changed',
      );
    }
  }
}

function additionalData(loginId: string): Buffer {
  return Buffer.from(`${FORMAT}\0${loginId}`, 'utf8');
}
