import { MAX_EMAIL_CHARS, MAX_NAME_CHARS } from '../companies/index.js';

/** Why a name or an address typed into an account form is refused. */
export type TextProblem = 'required' | 'too-long' | 'control' | 'email';

/** A one-line name (a person's, a company's): what the companies' records allow. */
export function nameFieldProblem(value: string): TextProblem | undefined {
  if (value.trim() === '') return 'required';
  if (value.length > MAX_NAME_CHARS) return 'too-long';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'control';
  return undefined;
}

/**
 * An e-mail address as the users' records and the message channels take it: one local part,
 * one domain with a dot, nothing that could make it two addresses or a header.
 */
export function emailFieldProblem(value: string): TextProblem | undefined {
  const address = value.trim();
  if (address === '') return 'required';
  if (address.length > MAX_EMAIL_CHARS) return 'too-long';
  if (
    // eslint-disable-next-line no-control-regex
    !/^[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]+@[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f.]+(\.[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f.]+)+$/.test(
      address,
    )
  )
    return 'email';
  return undefined;
}
