/** A logo's bytes are at most this: a signing page's logo is small, and the body carries it. */
const MAX_LOGO_BYTES = 1024 * 1024;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Why `settings.logo` cannot be the signing page's logo, or undefined when it can (spec 2.2):
 * a URL of this service (its public URL or the company's signing domain), or base64 bytes that
 * are a PNG or a JPEG by their signature, not by what they claim.
 */
export function logoProblem(logo: string, ownBases: (string | null)[]): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(logo)) {
    const origins = ownBases.flatMap((b) => (b ? [originOf(b)] : [])).filter(Boolean);
    const origin = originOf(logo);
    return origin && origins.includes(origin)
      ? undefined
      : `a logo URL must be one of this service's (${origins.join(' or ')}); send the image's bytes as base64 instead`;
  }
  const text = logo.replace(/\s+/g, '');
  if (!BASE64.test(text) || text.length % 4 !== 0)
    return 'neither a URL nor base64 bytes of a PNG or JPEG image';
  const bytes = Buffer.from(text, 'base64');
  if (bytes.byteLength > MAX_LOGO_BYTES)
    return `the logo has ${bytes.byteLength} bytes; at most ${MAX_LOGO_BYTES}`;
  if (startsWith(bytes, PNG) || startsWith(bytes, JPEG)) return undefined;
  return 'the bytes are neither a PNG nor a JPEG image';
}

function startsWith(bytes: Buffer, magic: Buffer): boolean {
  return bytes.byteLength >= magic.byteLength && bytes.subarray(0, magic.byteLength).equals(magic);
}

/** The origin of a URL or a bare host (a signing domain), or '' when it is neither. */
function originOf(text: string): string {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`).origin;
  } catch {
    return '';
  }
}
