import type { FieldErrors, Words } from '../pages/index.js';

/** The lifetimes a dashboard key may be given: never, or so many days. */
export const KEY_EXPIRIES = ['never', '30', '90', '365'] as const;
export type KeyExpiry = (typeof KEY_EXPIRIES)[number];

const DAY_MS = 24 * 3600_000;
/** As the key store holds names to (service/keys' key-fields.ts). */
const NAME_MAX = 200;

/** The create form as posted. */
export interface KeyForm {
  name?: string;
  expires?: string;
}

/** What the form asks the key store for, or every problem at once, by field. */
export type ReadKeyForm =
  { ok: true; name: string; expiresInMs: number | undefined } | { ok: false; errors: FieldErrors };

/**
 * The create form read and checked with the key store's own rules for a name (non-empty, at most
 * 200 characters, no control character), each problem in the page's words; the store checks
 * again, and its refusal is a bug here, not the person's.
 */
export function readKeyForm(form: KeyForm, words: Words['keys']): ReadKeyForm {
  const errors: Record<string, string> = {};
  const name = (form.name ?? '').trim();
  if (name === '') errors.name = words.nameMissing;
  else if (name.length > NAME_MAX) errors.name = words.nameTooLong;
  // eslint-disable-next-line no-control-regex
  else if (/[\u0000-\u001f\u007f]/.test(name)) errors.name = words.nameControl;
  const expires = form.expires ?? 'never';
  if (!(KEY_EXPIRIES as readonly string[]).includes(expires)) errors.expires = words.expiresInvalid;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    name,
    expiresInMs: expires === 'never' ? undefined : Number(expires) * DAY_MS,
  };
}
