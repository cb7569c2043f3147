import { X509Certificate, createHash, verify } from 'node:crypto';
import { P12Signer, type DigestAlgorithm, type Signer } from '@libpdf/core';
import { SealerError } from './sealer-error.js';

/** What seals: the key and certificate of a PKCS#12 file, checked once when loaded. */
export interface Sealer {
  /** The signer the PDF library calls; its certificate is the one matching the key. */
  readonly signer: Signer;
  /** The signing certificate. */
  readonly certificate: X509Certificate;
  /** Its subject, as `CN=..., O=...` lines joined by commas. */
  readonly subject: string;
  /** The end of its validity. */
  readonly notAfter: Date;
  /** Whether it signed itself: PDF readers then show the seal as untrusted. */
  readonly selfSigned: boolean;
  /** SHA-256 of the certificate's DER, lower-case hex: names it in logs and the audit trail. */
  readonly fingerprint: string;
}

/** Test data the key signs once at load, to find the certificate that belongs to it. */
const PROBE = new TextEncoder().encode('docpipe seal key probe');

/**
 * Opens a PKCS#12 file and checks it can seal now: the password opens it, it holds a key and the
 * certificate of that key (found among all the file's certificates, so a chain stored before the
 * leaf is no problem), and the certificate is valid at `now`. Every refusal is a SealerError.
 */
export async function loadSealer(
  p12: Uint8Array,
  password: string,
  options: { now?: Date } = {},
): Promise<Sealer> {
  const opened = await openP12(p12, password);
  const probe = await opened.sign(PROBE, 'SHA-256');
  const candidates = [opened.certificate, ...opened.certificateChain].map(
    (der) => [der, new X509Certificate(der)] as const,
  );
  const match = candidates.find(([, cert]) => signedBy(cert, probe, opened.keyType));
  if (!match)
    throw new SealerError(
      'no-certificate',
      'the PKCS#12 file holds no certificate for its private key',
    );
  const [der, certificate] = match;
  const now = options.now ?? new Date();
  const notBefore = new Date(certificate.validFrom);
  const notAfter = new Date(certificate.validTo);
  if (now < notBefore)
    throw new SealerError(
      'not-yet-valid',
      `the sealing certificate is valid from ${notBefore.toISOString()} only`,
    );
  if (now > notAfter)
    throw new SealerError(
      'expired',
      `the sealing certificate expired on ${notAfter.toISOString()}`,
    );
  const signer: Signer = {
    certificate: der,
    certificateChain: candidates.filter(([other]) => other !== der).map(([other]) => other),
    keyType: opened.keyType,
    signatureAlgorithm: opened.signatureAlgorithm,
    sign: (data: Uint8Array, algorithm: DigestAlgorithm) => opened.sign(data, algorithm),
  };
  return {
    signer,
    certificate,
    subject: certificate.subject.split('\n').join(', '),
    notAfter,
    selfSigned:
      certificate.subject === certificate.issuer && certificate.verify(certificate.publicKey),
    fingerprint: createHash('sha256').update(der).digest('hex'),
  };
}

async function openP12(p12: Uint8Array, password: string): Promise<P12Signer> {
  try {
    return await P12Signer.create(p12, password);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // @libpdf/core (0.4) and pkijs say which in words only; these are their messages.
    if (/password|integrity|mac\b/i.test(message))
      throw new SealerError('wrong-password', 'the password does not open the PKCS#12 file', {
        cause: err,
      });
    if (/no private key/i.test(message))
      throw new SealerError('no-key', 'the PKCS#12 file holds no private key', { cause: err });
    if (/no certificates/i.test(message))
      throw new SealerError('no-certificate', 'the PKCS#12 file holds no certificate', {
        cause: err,
      });
    throw new SealerError('unreadable', `not a readable PKCS#12 file: ${message}`, {
      cause: err,
    });
  }
}

/** Whether `signature` over PROBE verifies with the certificate's public key. */
function signedBy(cert: X509Certificate, signature: Uint8Array, keyType: string): boolean {
  const key = cert.publicKey;
  if ((keyType === 'RSA') !== (key.asymmetricKeyType === 'rsa')) return false;
  try {
    return verify('sha256', PROBE, key, signature);
  } catch {
    return false;
  }
}
