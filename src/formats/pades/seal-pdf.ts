import { createHash } from 'node:crypto';
import {
  HttpTimestampAuthority,
  PdfDict,
  PdfString,
  type PDF,
  type PdfObject,
  type TimestampAuthority,
} from '@libpdf/core';
import { ensureFileId, openPdf } from './open-pdf.js';
import type { Sealer } from './sealer.js';
import { finalizeFontsStably } from './stable-fonts.js';

/** How long a timestamp authority may take to answer before the seal fails (and is retried). */
export const DEFAULT_TSA_TIMEOUT_MS = 15_000;

/**
 * Room reserved for the CMS signature beyond the certificates it carries: the signed attributes,
 * an RSA 4096 signature and slack. A timestamp token carries the TSA's certificates too, so B-T
 * reserves TSA_ROOM more. Too small fails the seal; too large only pads the file with zeros.
 */
const CMS_ROOM = 6144;
const TSA_ROOM = 12288;

export interface SealOptions {
  /** An RFC 3161 timestamp authority's URL: the seal is PAdES B-T. Without it, B-B. */
  tsaUrl?: string;
  /** Another timestamp authority (takes precedence over tsaUrl). */
  timestampAuthority?: TimestampAuthority;
  /** How long the TSA may take. @defaultValue 15000 */
  tsaTimeoutMs?: number;
  /** The signature dictionary's /Reason. */
  reason?: string;
  /** Its /Location. */
  location?: string;
  /** Its /Name: who seals (readers show the certificate's name beside it). */
  name?: string;
  /** Its /ContactInfo. */
  contactInfo?: string;
  /**
   * The claimed signing time (the CMS signing-time attribute and /M). Fixed by the caller, the
   * output is the same bytes for the same inputs at B-B. @defaultValue now
   */
  signingTime?: Date;
}

/** Thrown when the timestamp authority fails: worth retrying, unlike a bad document. */
export class TimestampUnavailableError extends Error {
  override readonly name = 'TimestampUnavailableError';
  readonly retryable = true;
}

/**
 * Signs a PDF as PAdES (ETSI.CAdES.detached with the ESS signing-certificate-v2 and
 * signing-time attributes) in an incremental update whose ByteRange covers the whole file:
 * B-B, or B-T with a timestamp token from the TSA over the signature. Given a document already
 * loaded (openPdf) and drawn on, its changes and the signature are written in one save, with no
 * second parse. The input document is not usable afterwards.
 */
export async function sealPdf(
  pdf: Uint8Array | PDF,
  sealer: Sealer,
  options: SealOptions = {},
): Promise<Uint8Array> {
  const doc = pdf instanceof Uint8Array ? await openPdf(pdf) : pdf;
  const signingTime = options.signingTime ?? new Date();
  // A document loaded without openPdf and lacking an /ID: one from what the seal is made of.
  ensureFileId(doc, () =>
    createHash('sha256')
      .update(sealer.fingerprint)
      .update(signingTime.toISOString())
      .update(String(doc.getPageCount()))
      .digest()
      .subarray(0, 16),
  );
  finalizeFontsStably(doc);
  const authority =
    options.timestampAuthority ??
    (options.tsaUrl
      ? new HttpTimestampAuthority(options.tsaUrl, {
          timeout: options.tsaTimeoutMs ?? DEFAULT_TSA_TIMEOUT_MS,
        })
      : undefined);
  const certificates = [sealer.signer.certificate, ...(sealer.signer.certificateChain ?? [])];
  const estimatedSize =
    CMS_ROOM + certificates.reduce((sum, c) => sum + c.length, 0) + (authority ? TSA_ROOM : 0);
  const signing = withSignatureEntries(doc, options, () =>
    doc.sign({
      signer: sealer.signer,
      level: authority ? 'B-T' : 'B-B',
      subFilter: 'ETSI.CAdES.detached',
      digestAlgorithm: 'SHA-256',
      signingTime,
      estimatedSize,
      ...(authority ? { timestampAuthority: authority } : {}),
    }),
  );
  try {
    return (await signing).bytes;
  } catch (err) {
    if (err instanceof Error && err.name === 'TimestampError')
      throw new TimestampUnavailableError(`the timestamp authority failed: ${err.message}`, {
        cause: err,
      });
    throw err;
  }
}

/**
 * Runs `sign` with the signature dictionary's text entries written by docpipe. @libpdf/core 0.4
 * has no /Name, and escapes /Reason and /Location twice (a parenthesis shows as `\(`); it
 * registers the dictionary synchronously before its first await, so the registry's register is
 * wrapped for that synchronous stretch only, and the entries are set on the /Sig dictionary as
 * it passes. The tests read them back from the sealed file.
 */
function withSignatureEntries<T>(
  pdf: PDF,
  options: SealOptions,
  sign: () => Promise<T>,
): Promise<T> {
  const entries: [string, string][] = [];
  for (const [key, value] of [
    ['Name', options.name],
    ['Reason', options.reason],
    ['Location', options.location],
    ['ContactInfo', options.contactInfo],
  ] as const)
    if (value) entries.push([key, value]);
  const registry = pdf.context.registry;
  // Put back exactly as it was (an own property or the prototype's), never called unbound.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const register = registry.register;
  let seen = false;
  registry.register = (obj: PdfObject) => {
    if (!seen && obj instanceof PdfDict && obj.getName('Type')?.value === 'Sig') {
      seen = true;
      for (const [key, value] of entries) obj.set(key, PdfString.fromString(value));
    }
    return register.call(registry, obj);
  };
  try {
    const promise = sign();
    if (seen || entries.length === 0) return promise;
    promise.catch(() => undefined);
    throw new Error('@libpdf/core did not register the signature dictionary as expected');
  } finally {
    registry.register = register;
  }
}
