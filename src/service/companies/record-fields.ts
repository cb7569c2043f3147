import { resolveLocale } from '../../document/values/index.js';
import type { RecordProblem } from './record-errors.js';

/**
 * The checks of the records' fields, each giving a problem sentence (said after the field's
 * name) or undefined. One place, so that the CLI and (next) the HTTP surfaces refuse alike.
 */

/** Names are shown in lists and on signing pages: one line, of a length a page can show. */
export const MAX_NAME_CHARS = 200;

/** The longest e-mail address SMTP carries (RFC 5321's path limit, less its brackets). */
export const MAX_EMAIL_CHARS = 254;

/** Ids of folders, presets and message templates: what the company id allows (base/tenancy). */
export const RECORD_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function nameProblem(value: string): string | undefined {
  if (value.trim() === '') return 'must not be empty';
  if (value.length > MAX_NAME_CHARS) return `must be at most ${MAX_NAME_CHARS} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'must be one line, without control characters';
  return undefined;
}

export function emailProblem(value: string): string | undefined {
  if (value.length > MAX_EMAIL_CHARS) return `must be at most ${MAX_EMAIL_CHARS} characters`;
  // Deliverability is the mail server's to judge; this only refuses what is plainly no address.
  if (!/^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(value))
    return `must be an e-mail address such as ann@acme.example (got ${JSON.stringify(value)})`;
  return undefined;
}

/** A host, with an optional port: where the company's signing pages are served. */
export function signingDomainProblem(value: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.includes('/'))
    return `must be a host name such as sign.acme.example, without a scheme or path (got ${JSON.stringify(value)})`;
  const host =
    /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/i;
  if (value.length > 253 || !host.test(value))
    return `must be a host name such as sign.acme.example (got ${JSON.stringify(value)})`;
  return undefined;
}

/** The language tag as docpipe formats it (`en-GB`), or the problem with it. */
export function languageOf(value: string): { tag: string } | { problem: string } {
  const resolved = resolveLocale(value);
  return typeof resolved === 'string' ? { problem: resolved } : { tag: resolved.tag };
}

export function recordIdProblem(value: string): string | undefined {
  return RECORD_ID.test(value)
    ? undefined
    : `must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(value)})`;
}

/** Adds `path: problem` when the check finds one. */
export function collect(
  problems: RecordProblem[],
  path: string,
  problem: string | undefined,
): void {
  if (problem !== undefined) problems.push({ path, message: problem });
}
