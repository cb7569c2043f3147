/**
 * `Content-Disposition: inline` with the document's name (RFC 6266): an ASCII `filename` for old
 * clients and the exact name as UTF-8 in `filename*`. The name is data from a caller: control
 * characters, quotes, backslashes and path separators never reach the header, and the name ends
 * with the stored type's extension so a saved file opens as what it is.
 */
export function contentDisposition(name: string, extension: string | undefined): string {
  let clean = [...name]
    .map((c) => (c.charCodeAt(0) < 0x20 || c === '\x7f' || '"\\/'.includes(c) ? '_' : c))
    .join('')
    .trim()
    .slice(0, 200);
  if (clean === '' || clean === '.' || clean === '..') clean = 'document';
  if (extension && !clean.toLowerCase().endsWith(`.${extension}`)) clean = `${clean}.${extension}`;
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(clean)}`;
}

/** RFC 5987 value-chars: percent-encode everything but attr-chars. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
