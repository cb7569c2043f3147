import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  hashToken,
  isKeyId,
  newKeyProblems,
  newToken,
  tokenId,
} from '../../src/service/keys/index.js';
import { parseDuration } from '../../src/base/util/index.js';
import { isCompanyId } from '../../src/service/tenancy/index.js';

describe('API key tokens', () => {
  it('are dp_live_<16 hex id>_<64 hex secret>, each one new', () => {
    const made = Array.from({ length: 50 }, () => newToken());
    for (const { id, token } of made) {
      expect(token).toMatch(/^dp_live_[0-9a-f]{16}_[0-9a-f]{64}$/);
      expect(tokenId(token)).toBe(id);
      expect(isKeyId(id)).toBe(true);
    }
    expect(new Set(made.map((m) => m.id)).size).toBe(50);
    expect(new Set(made.map((m) => m.token.slice(25))).size).toBe(50);
  });

  it('give no id for anything that is not exactly a key', () => {
    const { token } = newToken();
    for (const bad of [
      '',
      token.toUpperCase(),
      ` ${token}`,
      `${token}\n`,
      token.slice(0, -1),
      `${token}a`,
      token.replace('dp_', 'dp-'),
      `dp_${'g'.repeat(16)}_${'a'.repeat(64)}`,
    ])
      expect(tokenId(bad), JSON.stringify(bad)).toBeUndefined();
    expect(isKeyId('0123456789ABCDEF')).toBe(false);
    expect(isKeyId('0123456789abcde')).toBe(false);
  });

  it('are stored as the SHA-256 of the whole key', () => {
    const { token } = newToken();
    expect(hashToken(token).toString('hex')).toBe(createHash('sha256').update(token).digest('hex'));
  });
});

describe('a new key’s fields', () => {
  it('accepts sane company ids and refuses the rest', () => {
    for (const ok of ['acme', 'A1', '5f1d7c9e2b', 'acme.dk', 'acme_dk-2', 'a'.repeat(128)])
      expect(isCompanyId(ok), ok).toBe(true);
    for (const bad of ['', '.acme', '-acme', 'a b', 'a/b', 'æble', 'a'.repeat(129), 'a\n'])
      expect(isCompanyId(bad), bad).toBe(false);
  });

  it('names every problem at once, and none for a good key', () => {
    const user = 'ops@acme.example';
    expect(newKeyProblems({ company: 'acme', user, name: 'ci', expiresInMs: 1 })).toEqual([]);
    expect(newKeyProblems({ company: 'acme', user, name: 'ci' })).toEqual([]);
    // The name may be left out: the key is named after its user.
    expect(newKeyProblems({ company: 'acme', user })).toEqual([]);
    expect(
      newKeyProblems({ company: 7, user: 'x', name: 'x'.repeat(201), expiresInMs: 1.5 }).map(
        (p) => p.field,
      ),
    ).toEqual(['company', 'user', 'name', 'expiresInMs']);
    expect(newKeyProblems({ company: 'a', user, name: 'tab\there' })).toEqual([
      { field: 'name', message: 'must not hold control characters (line breaks, tabs)' },
    ]);
    expect(newKeyProblems({ company: 'a', user, name: 'a', expiresInMs: -5 })).toHaveLength(1);
  });

  it('takes the user as an e-mail, nothing else', () => {
    for (const bad of [undefined, '', 'ops', 'ops@', '@acme', 'o ps@acme', `${'a'.repeat(320)}@b`])
      expect(
        newKeyProblems({ company: 'acme', user: bad }).map((p) => p.field),
        String(bad),
      ).toEqual(['user']);
  });
});

describe('parseDuration', () => {
  it('reads days, hours and minutes', () => {
    expect(parseDuration('90d')).toBe(90 * 86_400_000);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(parseDuration('30m')).toBe(30 * 60_000);
    expect(parseDuration(' 1d ')).toBe(86_400_000);
    expect(parseDuration('3653d')).toBe(3653 * 86_400_000);
  });

  it('says what it accepts for anything else', () => {
    for (const bad of ['', '90', 'd', '1.5d', '-1d', '90 d', '1w', '10s', '90D', '1e3d'])
      expect(() => parseDuration(bad), bad).toThrow(
        /is not a duration: give a whole number and a unit, d \(days\), h \(hours\) or m \(minutes\)/,
      );
    expect(() => parseDuration('0d')).toThrow('"0d" is no time at all: give at least 1d');
    expect(() => parseDuration('3654d')).toThrow(/more than ten years/);
  });
});
