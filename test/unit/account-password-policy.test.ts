import { describe, expect, it } from 'vitest';
import {
  MIN_PASSWORD_CHARS,
  PASSWORD_HASH_PARAMS,
  hashPassword,
  isCommonPassword,
  passwordProblem,
  verifyPassword,
} from '../../src/service/accounts/index.js';

describe('dashboard password policy', () => {
  it('asks for at least 10 characters, counted as a person counts them', () => {
    expect(MIN_PASSWORD_CHARS).toBe(10);
    expect(passwordProblem('Kx9#mQ2v!')).toBe('too-short');
    expect(passwordProblem('Kx9#mQ2v!z')).toBeUndefined();
    // Nine characters in JavaScript's UTF-16 length of 10: still too short.
    expect(passwordProblem('æøåæøåæø😀')).toBe('too-short');
  });

  it('refuses common passwords of any case', () => {
    expect(isCommonPassword('1234567890')).toBe(true);
    expect(passwordProblem('1234567890')).toBe('common');
    expect(passwordProblem('QWERTYUIOP')).toBe('common');
    expect(passwordProblem('Password123')).toBe('common');
    expect(passwordProblem('tangerine-orbit-41')).toBeUndefined();
  });

  it('refuses the e-mail address as the password, and an endless one', () => {
    expect(passwordProblem('Ann@Acme.example', 'ann@acme.example')).toBe('is-email');
    expect(passwordProblem('x'.repeat(257))).toBe('too-long');
  });

  it('hashes with argon2id at the measured cost and verifies', async () => {
    const stored = await hashPassword('tangerine-orbit-41');
    expect(stored).toMatch(
      new RegExp(
        `^\\$argon2id\\$v=19\\$m=${PASSWORD_HASH_PARAMS.memoryCost},t=${PASSWORD_HASH_PARAMS.timeCost},p=1\\$`,
      ),
    );
    expect(await verifyPassword(stored, 'tangerine-orbit-41')).toBe(true);
    expect(await verifyPassword(stored, 'tangerine-orbit-42')).toBe(false);
    expect(await verifyPassword('not a hash', 'tangerine-orbit-41')).toBe(false);
  });
});
