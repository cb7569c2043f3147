import { TextRun, type IRunOptions } from 'docx';

/**
 * Text with `**bold**` spans, as runs. Each span is one run, and a tag must lie inside one span:
 * docxtemplater reads a tag split across runs of one paragraph, but an author who opens the
 * document should find each tag whole, and lint counts excerpts per run.
 */
export function runs(
  markup: string,
  delimiters: readonly [string, string],
  extra: IRunOptions = {},
): TextRun[] {
  const spans = markup.split('**');
  if (spans.length % 2 === 0) throw new Error(`unbalanced ** in: ${markup}`);
  return spans.flatMap((text, i) => {
    if (text === '') return [];
    assertWholeTags(text, delimiters, markup);
    return [new TextRun({ ...extra, text, ...(i % 2 === 1 ? { bold: true } : {}) })];
  });
}

function assertWholeTags(
  text: string,
  [start, end]: readonly [string, string],
  markup: string,
): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith(start, i)) {
      depth++;
      i += start.length - 1;
    } else if (text.startsWith(end, i)) {
      depth--;
      i += end.length - 1;
    }
    if (depth < 0 || depth > 1) throw new Error(`a tag is split or nested in: ${markup}`);
  }
  if (depth !== 0) throw new Error(`a tag is split across runs in: ${markup}`);
}
