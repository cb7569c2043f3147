import type { AnchorKind } from './anchor-kinds.js';

/**
 * Text tags of an uploaded PDF: `{{sign:1}}`, `{{initials:2}}`, `{{name:1}}`, `{{date:1}}`, as
 * other signing services write them (double braces, so that ordinary text in braces is not
 * one). Spaces inside the braces are allowed: a PDF's text layer often has them where the author
 * had none. Global: use with matchAll, or give a fresh copy to an API that keeps lastIndex.
 */
export const TEXT_TAG_PATTERN = /\{\{\s*(sign|initials|name|date)\s*:\s*([1-9][0-9]?)\s*\}\}/g;

/** The anchor a text tag's text names, or undefined when it is not a whole text tag. */
export function readTextTag(text: string): { kind: AnchorKind; recipient: number } | undefined {
  const m = new RegExp(`^${TEXT_TAG_PATTERN.source}$`).exec(text);
  return m ? { kind: m[1] as AnchorKind, recipient: Number(m[2]) } : undefined;
}
