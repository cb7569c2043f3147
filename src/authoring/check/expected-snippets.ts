/**
 * The lines of an `expected.txt` that the PDF's text lacks. Runs of white space count as one
 * space on both sides, so a snippet may cross a line break the layout put in; blank lines are
 * not snippets.
 */
export function missingSnippets(expected: string, text: string): string[] {
  const flat = flatten(text);
  return expected
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !flat.includes(flatten(l)));
}

function flatten(text: string): string {
  return text.replace(/\s+/g, ' ');
}
