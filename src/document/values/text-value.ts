/* eslint-disable no-control-regex -- the characters XML cannot hold are control characters */
/**
 * Characters XML 1.0 cannot hold at all (C0 controls other than tab and line ends, lone
 * surrogates, U+FFFE and U+FFFF). Left in, they make Word refuse the document.
 */

const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** C1 controls are legal XML but invisible garbage in a contract. */
const C1 = /[\u0080-\u009F]/g;

/**
 * Makes a value safe to place in a document as text: line ends become `\n` (docxtemplater turns
 * those into line breaks), vertical tab and form feed become line breaks too, and everything
 * XML cannot hold is removed. Escaping happens later, at insertion.
 */
export function sanitizeText(value: string): string {
  return value
    .replace(/\r\n?|[\u000B\u000C\u2028\u2029\u0085]/g, '\n')
    .replace(NOT_XML, '')
    .replace(C1, '');
}
