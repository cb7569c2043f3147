import { dictionary } from '@zxcvbn-ts/language-common';

let common: ReadonlySet<string> | undefined;

/**
 * The common passwords docpipe refuses: zxcvbn-ts's list (about 49,000, from leaked password
 * sets, kept by the zxcvbn-ts project), lowercased, loaded on first use. Only the entries of
 * MIN_PASSWORD_CHARS or more matter, since shorter ones are refused for their length anyway.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}
