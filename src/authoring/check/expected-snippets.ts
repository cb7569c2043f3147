/**
 * The lines of an `expected.txt` that the PDF's text lacks, each with why. A line counts as
 * present when it is in the text read in reading order (where a snippet may cross a line break
 * the layout put in) or in the text as laid out (where a line copied from
 * `snapshots/<fixture>.txt`, a table row say, keeps its cells side by side). Runs of white space
 * count as one space on both sides; blank lines are not snippets.
 */
export function missingSnippets(
  expected: string,
  text: { plain: string; layout: string },
): MissingSnippet[] {
  const plain = flatten(text.plain);
  const layout = flatten(text.layout);
  const words = new Set(plain.split(' '));
  return expected
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !plain.includes(flatten(l)) && !layout.includes(flatten(l)))
    .map((line) => ({ line, why: whyMissing(flatten(line), words) }));
}

export interface MissingSnippet {
  line: string;
  /** Why it did not match, in words a template author can act on. */
  why: string;
}

function whyMissing(line: string, words: Set<string>): string {
  const absent = line.split(' ').filter((w) => !words.has(w));
  if (absent.length === 0)
    return 'every word is in the PDF, but not together in this order, neither in reading order nor as laid out';
  const shown = absent.slice(0, 3).map((w) => JSON.stringify(w));
  const more = absent.length > 3 ? ` and ${absent.length - 3} more` : '';
  return `not in the PDF: ${shown.join(', ')}${more}`;
}

function flatten(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
