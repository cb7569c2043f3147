import { previewValue } from './value-preview.js';

/** Accepts JSON booleans and the strings `true` and `false`; nothing else is guessed at. */
export function parseBooleanValue(value: unknown): boolean | string {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return `${previewValue(value)} is not true or false (give JSON true or false, or "true" or "false")`;
}

export interface BooleanFormat {
  yes: string;
  no: string;
}

/** A boolean's text when used as a placeholder: `Ja|Nej` gives the words for true and false. */
export function compileBooleanFormat(format: string): BooleanFormat | string {
  const parts = format.split('|');
  if (parts.length !== 2)
    return `boolean format ${previewValue(format)} must be "text if true|text if false", such as "Ja|Nej"`;
  return { yes: parts[0]!, no: parts[1]! };
}
