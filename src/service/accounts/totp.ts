import { Secret, TOTP } from 'otpauth';

/**
 * TOTP as every authenticator app does it (RFC 6238 with its defaults: SHA-1, 6 digits, 30 s),
 * through otpauth. A code is taken for its own step and one step either side (clocks differ, and
 * a code typed at the end of its 30 s arrives in the next), and only for a step later than the
 * last one the login used, so that a code cannot be used twice, nor an older one after it.
 */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that a code may be of. */
export const TOTP_WINDOW = 1;
/** 160 bits, RFC 4226's recommended length, as base32 (32 characters). */
const SECRET_BYTES = 20;

/** What a code is checked to be. */
export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'wrong' | 'replayed' };

/** A new random secret, base32 (what the QR code carries and a person types). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

function totpOf(secret: string, label = 'docpipe', issuer = 'docpipe'): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
  });
}

/** The `otpauth://` URI an app reads from the QR code: the installation, then the address. */
export function totpUri(secret: string, email: string, issuer: string): string {
  return totpOf(secret, email, issuer).toString();
}

/** The code of `secret` at `now` (tests, and nothing else here). */
export function totpCodeAt(secret: string, now: number): string {
  return totpOf(secret).generate({ timestamp: now });
}

/** The step `now` (ms since 1970) is in. */
export function totpStepAt(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD_S);
}

/** Whether `code` is one of `secret`'s at `now`, and of a step after `lastStep`. */
export function checkTotp(
  secret: string,
  code: string,
  now: number,
  lastStep: number | null,
): TotpCheck {
  const token = code.replace(/\s+/g, '');
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return { ok: false, reason: 'wrong' };
  const delta = totpOf(secret).validate({ token, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return { ok: false, reason: 'wrong' };
  const step = totpStepAt(now) + delta;
  if (lastStep !== null && step <= lastStep) return { ok: false, reason: 'replayed' };
  return { ok: true, step };
}
