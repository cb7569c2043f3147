/**
 * What TagInput values may be: sizes that keep a fill and its conversion short, and whether
 * characters that reorder text may reach a signer. Every limit is a setting; its environment
 * variable is named in each refusal so that the message says how to raise it.
 */
export interface ValueLimits {
  /**
   * Longest value, format, and text a value becomes, in characters (UTF-16 code units). A
   * contract clause of three pages is about 10,000. `DOCPIPE_MAX_VALUE_CHARS`.
   * @defaultValue 10000
   */
  maxValueChars: number;
  /**
   * The whole tag list (names, types, values and formats together), in characters. LibreOffice
   * lays a long paragraph out in more than linear time: 100,000 characters in one paragraph
   * added 0.2 s to a conversion, 300,000 added 1.4 s and 1,000,000 about a minute.
   * `DOCPIPE_MAX_TAGS_CHARS`.
   * @defaultValue 100000
   */
  maxTagsChars: number;
  /**
   * TagInputs in one list and the rows of its list values together (rows of lists in rows too):
   * each row repeats a piece of the template, so rows are what make a document long.
   * `DOCPIPE_MAX_TAGS`. @defaultValue 1000
   */
  maxTags: number;
  /**
   * Let values hold the directional embedding, override and isolate controls (U+202A to U+202E,
   * U+2066 to U+2069). They make a signer read text in another order than it was sent
   * (`abc\u202Egpj.exe` shows as `abcexe.jpg`), so they are refused unless allowed here.
   * `DOCPIPE_ALLOW_BIDI_CONTROLS`.
   * @defaultValue false
   */
  allowBidiControls: boolean;
}

export const DEFAULT_VALUE_LIMITS: Readonly<ValueLimits> = Object.freeze({
  maxValueChars: 10_000,
  maxTagsChars: 100_000,
  maxTags: 1_000,
  allowBidiControls: false,
});

/** The environment variable behind each limit, for messages that say how to change it. */
export const VALUE_LIMIT_VARIABLES: Readonly<Record<keyof ValueLimits, string>> = Object.freeze({
  maxValueChars: 'DOCPIPE_MAX_VALUE_CHARS',
  maxTagsChars: 'DOCPIPE_MAX_TAGS_CHARS',
  maxTags: 'DOCPIPE_MAX_TAGS',
  allowBidiControls: 'DOCPIPE_ALLOW_BIDI_CONTROLS',
});

/**
 * Deepest nesting inside one TagInput. A list takes three levels (its rows, their cells, a typed
 * cell's value), so lists in rows nest five deep; the bound is for the code that walks a request
 * before fill does (cache keys, structured clone, JSON), which recurses and would overflow its
 * stack.
 */
export const MAX_TAG_NESTING = 16;

/** Problems with limits given in code, one sentence each. */
export function valueLimitsProblems(limits: ValueLimits): { key: string; message: string }[] {
  const problems: { key: string; message: string }[] = [];
  for (const key of ['maxValueChars', 'maxTagsChars', 'maxTags'] as const) {
    const n = limits[key];
    if (!Number.isSafeInteger(n) || n <= 0)
      problems.push({ key, message: `must be a positive integer (got ${String(n)})` });
  }
  if (typeof limits.allowBidiControls !== 'boolean')
    problems.push({ key: 'allowBidiControls', message: 'must be true or false' });
  return problems;
}
