import { createPrivateKey, type KeyObject, type webcrypto } from 'node:crypto';

/**
 * docpipe's own key for `private_key_jwt` (RFC 7523): the client proves itself to the token
 * endpoint with a JWT signed by it, and the broker holds only the public half. An RSA key (2048
 * bits or more, signing RS256) or an EC P-256 key (ES256), as PEM; what brokers accept.
 */

/** Shortest RSA modulus taken: below 2048 bits a key is breakable, and brokers refuse it. */
const MIN_RSA_BITS = 2048;

function keyOf(pem: string): KeyObject | string {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    return 'is no PEM private key (unencrypted PKCS#8, PKCS#1 or SEC1)';
  }
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa') {
    if ((details?.modulusLength ?? 0) < MIN_RSA_BITS)
      return `is an RSA key of ${details?.modulusLength} bits: ${MIN_RSA_BITS} at least`;
    return key;
  }
  if (key.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1') return key;
  return 'must be an RSA key or an EC P-256 key';
}

/** Why `pem` cannot be the client's key, or undefined. */
export function clientKeyProblem(pem: string): string | undefined {
  const key = keyOf(pem);
  return typeof key === 'string' ? key : undefined;
}

/** The client's key as Web Crypto signs with it (RS256 or ES256). */
export function clientCryptoKey(pem: string): CryptoKey {
  const key = keyOf(pem);
  if (typeof key === 'string') throw new TypeError(`the eID client key ${key}`);
  const cryptoKey: webcrypto.CryptoKey =
    key.asymmetricKeyType === 'rsa'
      ? key.toCryptoKey({ name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign'])
      : key.toCryptoKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  // Node's CryptoKey is the Web Crypto one; its type differs from the DOM library's (which the
  // pages' JSX types bring in) only in key usages Node knows and the DOM library does not yet.
  return cryptoKey as unknown as CryptoKey;
}
