import { decodePdfName, isNameChar, namesIn } from './pdf-names.js';

const ENCRYPT = 'Encrypt';
const ENCRYPT_BYTES = Buffer.from(`/${ENCRYPT}`, 'latin1');
const HASH = 0x23;
const SLASH = 0x2f;
/** The longest raw spelling of /Encrypt: every letter as `#xx`. */
const LONGEST_SPELLING = ENCRYPT.length * 3;
/** How far around a key its dictionary is looked for. */
const DICTIONARY_WINDOW = 4096;

/**
 * Whether some trailer or cross-reference stream dictionary holds /Encrypt, in any spelling
 * (`/Encr#79pt`, `/E#6ecrypt`). Both kinds of dictionary always carry /Size and neither is ever
 * compressed, so a byte scan finds them, whatever state the rest of the file is in. Used before
 * and beside parsing: a file that does not parse must still be refused as encrypted when it is.
 */
export function hasEncryptionDictionary(bytes: Buffer): boolean {
  return encryptKeyPositions(bytes).some((at) => {
    const dict = enclosingDictionary(bytes, at);
    return dict !== undefined && namesIn(dict).includes('Size');
  });
}

/** Offsets of every name token that decodes to /Encrypt (not /EncryptMetadata). */
function encryptKeyPositions(bytes: Buffer): number[] {
  const found: number[] = [];
  for (
    let at = bytes.indexOf(ENCRYPT_BYTES);
    at !== -1;
    at = bytes.indexOf(ENCRYPT_BYTES, at + 1)
  ) {
    const next = bytes[at + ENCRYPT_BYTES.length];
    if (next === undefined || !isNameChar(next)) found.push(at);
  }
  // An escaped spelling has a '#' followed by two hex digits within the name.
  for (let hash = bytes.indexOf(HASH); hash !== -1; hash = bytes.indexOf(HASH, hash + 1)) {
    // Most '#' bytes are in compressed data: without two hex digits after them, no escape.
    if (!isHexDigit(bytes[hash + 1]) || !isHexDigit(bytes[hash + 2])) continue;
    const start = nameStartBefore(bytes, hash);
    if (start === -1) continue;
    let end = hash + 1;
    while (end < bytes.length && end - start <= LONGEST_SPELLING + 1 && isNameChar(bytes[end]!))
      end++;
    const raw = bytes.subarray(start + 1, end).toString('latin1');
    if (decodePdfName(raw) === ENCRYPT && !found.includes(start)) found.push(start);
    // The same name may hold several '#': go on after it.
    hash = Math.max(hash, end - 1);
  }
  return found;
}

function isHexDigit(c: number | undefined): boolean {
  return (
    c !== undefined && ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66))
  );
}

/** The `/` that starts the name a byte belongs to, if it is within reach of one. */
function nameStartBefore(bytes: Buffer, position: number): number {
  for (let i = position - 1; i >= 0 && position - i <= LONGEST_SPELLING; i--) {
    const c = bytes[i]!;
    if (c === SLASH) return i;
    if (!isNameChar(c)) return -1;
  }
  return -1;
}

/** Text of the innermost `<< ... >>` around a position, within a few KiB. */
function enclosingDictionary(bytes: Buffer, position: number): string | undefined {
  const windowStart = Math.max(0, position - DICTIONARY_WINDOW);
  const before = bytes.subarray(windowStart, position).toString('latin1');
  let depth = 0;
  let start = -1;
  for (let i = before.length - 1; i > 0; i--) {
    const pair = before.slice(i - 1, i + 1);
    if (pair === '>>') {
      depth++;
      i--;
    } else if (pair === '<<') {
      if (depth === 0) {
        start = i - 1;
        break;
      }
      depth--;
      i--;
    }
  }
  if (start === -1) return undefined;
  const after = bytes
    .subarray(position, Math.min(bytes.length, position + DICTIONARY_WINDOW))
    .toString('latin1');
  depth = 0;
  for (let i = 0; i < after.length - 1; i++) {
    const pair = after.slice(i, i + 2);
    if (pair === '<<') {
      depth++;
      i++;
    } else if (pair === '>>') {
      if (depth === 0) return before.slice(start) + after.slice(0, i + 2);
      depth--;
      i++;
    }
  }
  return undefined;
}
