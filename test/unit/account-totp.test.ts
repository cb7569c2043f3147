import { describe, expect, it } from 'vitest';
import {
  TOTP_PERIOD_S,
  TotpCipher,
  TotpSecretDecryptError,
  checkTotp,
  newRecoveryCode,
  newTotpSecret,
  normalRecoveryCode,
  totpCodeAt,
  totpStepAt,
  totpUri,
} from '../../src/service/accounts/index.js';

/** A moment in the middle of a step: a step either side is then a whole period away. */
const NOW = (totpStepAt(Date.UTC(2026, 11, 2, 8)) + 0.5) * TOTP_PERIOD_S * 1000;
const STEP_MS = TOTP_PERIOD_S * 1000;

describe('TOTP codes', () => {
  const secret = newTotpSecret();

  it('makes 160-bit base32 secrets, a new one each time, in an otpauth URI', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, 'ann@example.com', 'docpipe (example.com)'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(uri.pathname)).toContain('ann@example.com');
  });

  it('takes the code of now and of one step either side, and no other', () => {
    const current = totpStepAt(NOW);
    for (const offset of [-1, 0, 1])
      expect(checkTotp(secret, totpCodeAt(secret, NOW + offset * STEP_MS), NOW, null)).toEqual({
        ok: true,
        step: current + offset,
      });
    for (const offset of [-3, -2, 2, 3])
      expect(checkTotp(secret, totpCodeAt(secret, NOW + offset * STEP_MS), NOW, null)).toEqual({
        ok: false,
        reason: 'wrong',
      });
  });

  it('refuses what is not six digits, and another secret’s code', () => {
    for (const typed of ['', '12345', '1234567', 'abcdef', '12 34 5x'])
      expect(checkTotp(secret, typed, NOW, null).ok).toBe(false);
    expect(checkTotp(newTotpSecret(), totpCodeAt(secret, NOW), NOW, null).ok).toBe(false);
    const code = totpCodeAt(secret, NOW);
    expect(checkTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, NOW, null).ok).toBe(true);
  });

  it('refuses a code of the last step used, or of one before it (a replay)', () => {
    const code = totpCodeAt(secret, NOW);
    const first = checkTotp(secret, code, NOW, null);
    expect(first.ok).toBe(true);
    const step = first.ok ? first.step : -1;
    expect(checkTotp(secret, code, NOW + 1000, step)).toEqual({ ok: false, reason: 'replayed' });
    const before = totpCodeAt(secret, NOW - STEP_MS);
    expect(checkTotp(secret, before, NOW, step)).toEqual({ ok: false, reason: 'replayed' });
    const next = totpCodeAt(secret, NOW + STEP_MS);
    expect(checkTotp(secret, next, NOW + STEP_MS, step)).toEqual({ ok: true, step: step + 1 });
  });
});

describe('TOTP secrets at rest', () => {
  const cipher = new TotpCipher('a-test-signing-secret-of-32-chars');
  const secret = newTotpSecret();

  it('encrypts with a new nonce each time and decrypts for the same login', () => {
    const one = cipher.encrypt(secret, 'login-1');
    const two = cipher.encrypt(secret, 'login-1');
    expect(one).not.toBe(two);
    expect(one).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(one).not.toContain(secret);
    expect(cipher.decrypt(one, 'login-1')).toBe(secret);
    expect(new TotpCipher('a-test-signing-secret-of-32-chars').decrypt(two, 'login-1')).toBe(
      secret,
    );
  });

  it('refuses another login’s value, another signing secret’s and an altered one', () => {
    const stored = cipher.encrypt(secret, 'login-1');
    expect(() => cipher.decrypt(stored, 'login-2')).toThrow(TotpSecretDecryptError);
    expect(() =>
      new TotpCipher('another-signing-secret-0123456789').decrypt(stored, 'login-1'),
    ).toThrow(TotpSecretDecryptError);
    const bytes = Buffer.from(stored.slice(3), 'base64url');
    bytes[14] = bytes[14]! ^ 1;
    expect(() => cipher.decrypt(`v1.${bytes.toString('base64url')}`, 'login-1')).toThrow(
      TotpSecretDecryptError,
    );
    expect(() => cipher.decrypt('v2.abc', 'login-1')).toThrow(TotpSecretDecryptError);
    // The error names nothing of the secret.
    try {
      cipher.decrypt(stored, 'login-2');
    } catch (err) {
      expect(String((err as Error).message)).not.toContain(secret);
    }
  });
});

describe('recovery codes', () => {
  it('are ten random characters in two groups, read back whatever the case or dashes', () => {
    const codes = new Set(Array.from({ length: 50 }, newRecoveryCode));
    expect(codes.size).toBe(50);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const [code = ''] = codes;
    expect(normalRecoveryCode(code.toUpperCase())).toBe(code.replace('-', ''));
    expect(normalRecoveryCode(` ${code.replace('-', ' ')} `)).toBe(code.replace('-', ''));
    expect(normalRecoveryCode('123456')).toBeUndefined();
    expect(normalRecoveryCode('abcde-fghi0')).toBeUndefined();
  });
});
