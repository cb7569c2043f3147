/** A company's logo is at most this, as a signing page's logo is (service/cases' signing-logo.ts). */
export const MAX_COMPANY_LOGO_BYTES = 1024 * 1024;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/** The media types a company's logo may have (companies.logo_type's check). */
export type LogoType = 'image/png' | 'image/jpeg';

/** Why bytes are no logo: the sentence, and which of the reasons (for a page's own words). */
export interface LogoProblem {
  problem: string;
  reason: 'empty' | 'too-large' | 'not-an-image';
}

/**
 * The media type of a logo's bytes, or the problem with them: a PNG or a JPEG by its signature,
 * never by its file name or the type a browser declared (the rule of `settings.logo`, spec 2.2,
 * in service/cases' logoProblem), of at most MAX_COMPANY_LOGO_BYTES.
 */
export function logoTypeOf(bytes: Buffer): { type: LogoType } | LogoProblem {
  if (bytes.byteLength === 0) return { problem: 'the file is empty', reason: 'empty' };
  if (bytes.byteLength > MAX_COMPANY_LOGO_BYTES)
    return {
      problem: `the logo has ${bytes.byteLength} bytes; at most ${MAX_COMPANY_LOGO_BYTES}`,
      reason: 'too-large',
    };
  if (startsWith(bytes, PNG)) return { type: 'image/png' };
  if (startsWith(bytes, JPEG)) return { type: 'image/jpeg' };
  return { problem: 'the bytes are neither a PNG nor a JPEG image', reason: 'not-an-image' };
}

function startsWith(bytes: Buffer, magic: Buffer): boolean {
  return bytes.byteLength >= magic.byteLength && bytes.subarray(0, magic.byteLength).equals(magic);
}
