import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * The key of a certificate docpipe makes itself: RSA 3072 with PKCS#1 v1.5 signatures. RSA
 * because its signatures are deterministic (ECDSA's are not), so a seal re-run with the same
 * inputs gives the same bytes (sealing is idempotent by construction, not only by bookkeeping);
 * 3072 bits for 128-bit security past 2030; every PDF reader verifies it. Signing costs a few ms.
 */
const KEY_ALGORITHM = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 3072,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
} as const;

/**
 * PBKDF2 rounds of the file's encryption and MAC: OpenSSL 3's default for `pkcs12 -export`. The
 * file's guard is its mode (0600) and its password kept apart from it; 100,000 rounds made each
 * start 1.1 s slower here (pkijs derives the MAC key in JavaScript) for little more.
 */
const P12_ITERATIONS = 2048;

/** Certificates are back-dated this much so that a server a little behind still accepts one. */
const BACKDATE_MS = 60 * 60 * 1000;

export const DEFAULT_SELF_SIGNED_DAYS = 3650;

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  subjectKeyIdentifier: '2.5.29.14',
  keyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  friendlyName: '1.2.840.113549.1.9.20',
  localKeyId: '1.2.840.113549.1.9.21',
} as const;

export interface SelfSignedOptions {
  /** The certificate's CN: what a PDF reader shows as the signer. */
  commonName: string;
  /** The certificate's O. */
  organization?: string;
  /**
   * How long it is valid.
   * @defaultValue 3650
   */
  days?: number;
  /** The start of its validity (less an hour); for tests. @defaultValue now */
  now?: Date;
}

/**
 * A PKCS#12 file with a new RSA 3072 key and a self-signed certificate for it (key usage:
 * digital signature and non-repudiation), encrypted (PBES2, AES-256-CBC) under a new random
 * password, which is returned with it. openssl and PDF signing tools read it.
 */
export async function makeSelfSignedP12(
  options: SelfSignedOptions,
): Promise<{ p12: Uint8Array; password: string }> {
  const engine = new pkijs.CryptoEngine({
    name: 'node',
    // Node's global WebCrypto is the standard one, typed as pkijs expects (the DOM library's).
    crypto: globalThis.crypto,
  });
  const keys = await globalThis.crypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
  const certificate = await selfSignedCertificate(keys, options, engine);
  const password = randomBytes(24).toString('base64url');
  const p12 = await pkcs12(keys.privateKey, certificate, password, options.commonName, engine);
  return { p12, password };
}

/**
 * A certificate serial from random bytes, as DER wants it: positive (top bit clear) and minimal
 * (first byte never zero). A zero first byte before one below 0x80 is a non-minimal INTEGER,
 * which OpenSSL refuses to parse: one certificate in 256 could then not be loaded.
 */
export function certificateSerial(random: Uint8Array): Uint8Array {
  const serial = Uint8Array.from(random);
  serial[0] = (serial[0]! & 0x7f) | 0x40;
  return serial;
}

async function selfSignedCertificate(
  keys: CryptoKeyPair,
  options: SelfSignedOptions,
  engine: pkijs.CryptoEngine,
): Promise<pkijs.Certificate> {
  const days = options.days ?? DEFAULT_SELF_SIGNED_DAYS;
  if (!Number.isInteger(days) || days < 1) throw new RangeError('days must be a positive integer');
  const start = (options.now ?? new Date()).getTime() - BACKDATE_MS;
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: certificateSerial(randomBytes(16)) });
  certificate.subject = distinguishedName(options);
  certificate.issuer = distinguishedName(options);
  certificate.notBefore.value = new Date(start);
  certificate.notAfter.value = new Date(start + days * 86_400_000);
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey, engine);
  const keyId = await engine.digest(
    { name: 'SHA-1' },
    new Uint8Array(certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
  );
  // digitalSignature (bit 0) and nonRepudiation (bit 1): a document signing key, no CA.
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0xc0]).buffer, unusedBits: 6 });
  certificate.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.keyUsage,
      critical: true,
      extnValue: keyUsage.toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      extnValue: new asn1js.OctetString({ valueHex: keyId }).toBER(false),
    }),
  ];
  await certificate.sign(keys.privateKey, 'SHA-256', engine);
  return certificate;
}

/**
 * CN, then O, each in an RDN of its own. pkijs puts all of a name's attributes in one RDN (a
 * multi-valued `CN=a+O=b`, which readers show oddly), so the name is encoded here and parsed back.
 */
function distinguishedName(options: SelfSignedOptions): pkijs.RelativeDistinguishedNames {
  const attributes = [[OID.commonName, options.commonName]];
  if (options.organization) attributes.push([OID.organization, options.organization]);
  const der = new asn1js.Sequence({
    value: attributes.map(
      ([type, value]) =>
        new asn1js.Set({
          value: [
            new pkijs.AttributeTypeAndValue({
              type,
              value: new asn1js.Utf8String({ value }),
            }).toSchema(),
          ],
        }),
    ),
  }).toBER(false);
  return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(der).result });
}

async function pkcs12(
  privateKey: CryptoKey,
  certificate: pkijs.Certificate,
  password: string,
  friendlyName: string,
  engine: pkijs.CryptoEngine,
): Promise<Uint8Array> {
  const secret = new TextEncoder().encode(password).buffer;
  const encryption = {
    password: secret,
    contentEncryptionAlgorithm: { name: 'AES-CBC', length: 256 },
    hmacHashAlgorithm: 'SHA-256',
    iterationCount: P12_ITERATIONS,
  };
  const pkcs8 = await engine.exportKey('pkcs8', privateKey);
  const keyInfo = new pkijs.PrivateKeyInfo({ schema: asn1js.fromBER(pkcs8).result });
  const keyBag = new pkijs.PKCS8ShroudedKeyBag({ parsedValue: keyInfo });
  // pkijs makes the IV itself; its types (the DOM library's AesCbcParams) ask for one anyway.
  await keyBag.makeInternalValues(
    encryption as unknown as Parameters<typeof keyBag.makeInternalValues>[0],
    engine,
  );
  // The same localKeyId on both bags pairs the key with its certificate for other tools.
  const localKeyId = await engine.digest({ name: 'SHA-1' }, certificate.toSchema().toBER(false));
  const bagAttributes = [
    new pkijs.Attribute({
      type: OID.friendlyName,
      values: [new asn1js.BmpString({ value: friendlyName })],
    }),
    new pkijs.Attribute({
      type: OID.localKeyId,
      values: [new asn1js.OctetString({ valueHex: localKeyId })],
    }),
  ];
  const pfx = new pkijs.PFX({
    parsedValue: {
      integrityMode: 0,
      authenticatedSafe: new pkijs.AuthenticatedSafe({
        parsedValue: {
          safeContents: [
            {
              privacyMode: 0,
              value: new pkijs.SafeContents({
                safeBags: [
                  new pkijs.SafeBag({ bagId: OID.keyBag, bagValue: keyBag, bagAttributes }),
                ],
              }),
            },
            {
              privacyMode: 1,
              value: new pkijs.SafeContents({
                safeBags: [
                  new pkijs.SafeBag({
                    bagId: OID.certBag,
                    bagValue: new pkijs.CertBag({ parsedValue: certificate }),
                    bagAttributes,
                  }),
                ],
              }),
            },
          ],
        },
      }),
    },
  });
  await pfx.parsedValue!.authenticatedSafe!.makeInternalValues(
    { safeContents: [{}, encryption] },
    engine,
  );
  await pfx.makeInternalValues(
    {
      password: secret,
      iterations: P12_ITERATIONS,
      pbkdf2HashAlgorithm: 'SHA-256',
      hmacHashAlgorithm: 'SHA-256',
    },
    engine,
  );
  return new Uint8Array(pfx.toSchema().toBER(false));
}
