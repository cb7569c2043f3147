const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether JSON text nests arrays and objects more than `max` levels deep, read from the text
 * before anything parses it: `JSON.parse` of a body nested millions of levels deep builds the
 * whole tree (seconds of CPU and a GB of memory) before a check of the parsed value could refuse
 * it. One pass over the characters, stopping at the first level past `max`; brackets inside
 * strings (escaped quotes included) do not count. The text need not be valid JSON: whatever this
 * lets through, the parser still judges.
 */
export function textNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}
