const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const COMMA = 0x2c; // ,
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/** What JSON text may hold before anything parses it. */
export interface JsonTextBounds {
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
  /** Most members and items in all, counted by their separators and containers. */
  maxValues: number;
}

/**
 * Which bound JSON text passes, read from the text before anything parses it, or undefined when
 * it passes none. `JSON.parse` of a body nested millions of levels deep, or of millions of
 * members side by side, builds the whole tree (seconds of CPU and a GB of memory, the event loop
 * held for every other client) and schema validation then reports each member, before a check of
 * the parsed value could refuse it.
 *
 * One pass over the characters, stopping at the first bound passed; brackets and commas inside
 * strings (escaped quotes included) do not count. Values are counted as every container and every
 * comma between members or items: an upper bound of the members and items, within one per
 * container. The text need not be valid JSON: whatever this lets through, the parser still judges.
 */
export function jsonTextPasses(
  text: string,
  bounds: JsonTextBounds,
): 'depth' | 'values' | undefined {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > bounds.maxDepth) return 'depth';
      if (++values > bounds.maxValues) return 'values';
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
    else if (c === COMMA && ++values > bounds.maxValues) return 'values';
  }
  return undefined;
}

/** Whether JSON text nests arrays and objects more than `max` levels deep (see jsonTextPasses). */
export function textNestsDeeperThan(text: string, max: number): boolean {
  return jsonTextPasses(text, { maxDepth: max, maxValues: Infinity }) === 'depth';
}
