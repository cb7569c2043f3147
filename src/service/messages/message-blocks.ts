import { bodyText } from './plain-text.js';
import { button, escapeHtml, link, P_STYLE, textToHtml } from './html.js';

/**
 * A message body as a list of blocks, written once and shown twice: as the text part and as the
 * HTML part. Every string in a block is plain text; the HTML renderer escapes it.
 */
export type MessageBlock =
  /** A paragraph; `\n` inside it is a line break. */
  | { kind: 'paragraph'; text: string }
  /**
   * Text from a person, set apart: the case's message, its links made clickable in HTML; or,
   * with `links: false`, a signer's text (a denial's reason), never a link.
   */
  | { kind: 'quote'; text: string; links?: boolean }
  /** Text that is already a whole body (a filled template): paragraphs and links kept. */
  | { kind: 'text'; text: string }
  /** The signing link: a button in HTML, `label:` and the URL on its own line in text. */
  | { kind: 'button'; label: string; url: string }
  /** Links, one a line (the signed documents when they are not attached). */
  | { kind: 'links'; items: { label: string; url: string }[] };

export function blocksToText(blocks: MessageBlock[], footer: string): string {
  const parts = blocks.map((b) => {
    switch (b.kind) {
      case 'paragraph':
      case 'text':
        return bodyText(b.text).trim();
      case 'quote':
        return bodyText(b.text).trim();
      case 'button':
        return `${b.label}:\n${b.url}`;
      case 'links':
        return b.items.map((i) => `${bodyText(i.label)}:\n${i.url}`).join('\n\n');
    }
  });
  // "-- " is the signature separator mail clients recognise and fold away.
  return `${parts.filter((p) => p !== '').join('\n\n')}\n\n-- \n${footer}\n`;
}

export function blocksToHtml(blocks: MessageBlock[]): string {
  return blocks
    .map((b) => {
      switch (b.kind) {
        case 'paragraph':
          return `<p style="${P_STYLE}">${escapeHtml(bodyText(b.text).trim()).replace(/\n/g, '<br>\n')}</p>`;
        case 'text':
          return textToHtml(bodyText(b.text));
        case 'quote':
          return (
            '<div style="margin:0 0 16px 0;padding:4px 0 4px 16px;border-left:3px solid #d4d4d8;color:#3f3f46">' +
            `${textToHtml(bodyText(b.text), b.links !== false)}</div>`
          );
        case 'button':
          return `${button(b.url, b.label)}\n<p style="${P_STYLE};font-size:12px;color:#71717a;word-break:break-all">${link(b.url, b.url)}</p>`;
        case 'links':
          return `<ul style="margin:0 0 16px 0;padding-left:20px">${b.items
            .map((i) => `<li>${link(i.url, bodyText(i.label))}</li>`)
            .join('')}</ul>`;
      }
    })
    .filter((html) => html !== '' && !/^<p[^>]*><\/p>$/.test(html))
    .join('\n');
}
