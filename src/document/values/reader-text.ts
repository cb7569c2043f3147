import { bidiControlProblem } from './bidi.js';

/**
 * A text that people read as it was sent (a case's title, a recipient's name, a document's name,
 * a signer's typed name or reason): the first character in it that would make them read
 * something else, as a sentence naming it and its position, or undefined when there is none.
 * Refused are the C0 and C1 controls (tab aside, and line breaks aside where `lines` allows them:
 * a message has lines, a name has one) and the bidi controls values refuse (bidi.ts). A CR or LF
 * in a one-line text splits an e-mail subject or a log line; a bidi control reorders it.
 */
export function readerTextProblem(
  text: string,
  options: { lines?: boolean } = {},
): string | undefined {
  let position = 0;
  for (const ch of text) {
    position++;
    const code = ch.codePointAt(0)!;
    if (code === 0x09 || (options.lines === true && (code === 0x0a || code === 0x0d))) continue;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f))
      return (
        `contains a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')}` +
        `${code === 0x0a || code === 0x0d ? ', a line break' : ''}) at character ${position}; remove it`
      );
  }
  return bidiControlProblem(text);
}
