import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseCprKey } from '../../src/app/config/index.js';
import { ConfigError } from '../../src/app/env/index.js';
import { CprCipher, CprDecryptError, normalizeCpr } from '../../src/service/cpr/index.js';

const key = randomBytes(32);

describe('the CPR cipher', () => {
  it('gives back the number it encrypted, for the same company', () => {
    const cipher = new CprCipher(key);
    const stored = cipher.encrypt('0101901234', 'acme');
    expect(cipher.decrypt(stored, 'acme')).toBe('0101901234');
    // A new key object with the same bytes reads it too: nothing but the key is needed.
    expect(new CprCipher(Buffer.from(key)).decrypt(stored, 'acme')).toBe('0101901234');
  });

  it('lays a value out as format, key id, nonce, ciphertext and tag, without the digits', () => {
    const cipher = new CprCipher(key);
    const stored = cipher.encrypt('0101901234', 'acme');
    expect(stored[0]).toBe(1);
    expect(stored[1]).toBe(cipher.keyId);
    expect(stored.length).toBe(2 + 12 + 10 + 16);
    expect(stored.toString('latin1')).not.toContain('0101901234');
    expect(stored.toString('hex')).not.toContain(Buffer.from('0101901234').toString('hex'));
  });

  it('uses a new nonce for every value: the same number twice is stored two ways', () => {
    const cipher = new CprCipher(key);
    const a = cipher.encrypt('0101901234', 'acme');
    const b = cipher.encrypt('0101901234', 'acme');
    expect(a.subarray(2, 14).equals(b.subarray(2, 14))).toBe(false);
    expect(a.equals(b)).toBe(false);
  });

  it('detects tampering with any byte: the ciphertext, the tag, the nonce or the header', () => {
    const cipher = new CprCipher(key);
    const stored = cipher.encrypt('0101901234', 'acme');
    for (let i = 0; i < stored.length; i++) {
      const altered = Buffer.from(stored);
      altered[i] = altered[i]! ^ 0x01;
      expect(() => cipher.decrypt(altered, 'acme'), `byte ${i}`).toThrow(CprDecryptError);
    }
    expect(() => cipher.decrypt(stored.subarray(0, 20), 'acme')).toThrow(CprDecryptError);
  });

  it("refuses another company's value: the company is authenticated with it", () => {
    const cipher = new CprCipher(key);
    expect(() => cipher.decrypt(cipher.encrypt('0101901234', 'acme'), 'globex')).toThrow(
      CprDecryptError,
    );
  });

  it('refuses a value of another key, and reads an old key’s values after a rotation', () => {
    const old = new CprCipher(key);
    const stored = old.encrypt('0101901234', 'acme');
    const other = new CprCipher(randomBytes(32));
    expect(() => other.decrypt(stored, 'acme')).toThrow(CprDecryptError);
    const rotated = new CprCipher(randomBytes(32), [key]);
    expect(rotated.decrypt(stored, 'acme')).toBe('0101901234');
    expect(rotated.encrypt('0101901234', 'acme')[1]).toBe(rotated.keyId);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new CprCipher(randomBytes(16))).toThrow(/32 bytes/);
  });

  it('never puts the number into an error', () => {
    const cipher = new CprCipher(key);
    const stored = cipher.encrypt('0101901234', 'acme');
    const err = (() => {
      try {
        cipher.decrypt(stored, 'globex');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).not.toContain('0101901234');
  });
});

describe('a CPR number', () => {
  it('is 10 digits, or 6, a dash and 4, kept as its 10 digits', () => {
    expect(normalizeCpr('0101901234')).toEqual({ cpr: '0101901234' });
    expect(normalizeCpr('010190-1234')).toEqual({ cpr: '0101901234' });
    expect(normalizeCpr(' 010190-1234 ')).toEqual({ cpr: '0101901234' });
  });

  it('refuses anything else without repeating it', () => {
    for (const bad of ['01019012345', '010190 1234', '0101-901234', '01019o1234', '', 101901234]) {
      const out = normalizeCpr(bad);
      expect(out, String(bad)).toHaveProperty('problem');
      if (typeof bad === 'string' && bad !== '')
        expect((out as { problem: string }).problem).not.toContain(bad);
    }
  });
});

describe('DOCPIPE_CPR_KEY', () => {
  it('takes 32 bytes as hex or base64', () => {
    expect(parseCprKey(key.toString('hex'))).toEqual({ key });
    expect(parseCprKey(key.toString('base64'))).toEqual({ key });
    expect(parseCprKey(key.toString('base64url'))).toEqual({ key });
    expect(loadConfig({ DOCPIPE_CPR_KEY: key.toString('base64') }).cprKey).toEqual(key);
    expect(loadConfig({}).cprKey).toBeUndefined();
  });

  it('refuses another length or alphabet at start, naming the variable and not the value', () => {
    for (const bad of [
      randomBytes(16).toString('hex'),
      randomBytes(31).toString('base64'),
      'x'.repeat(64),
    ]) {
      let err: unknown;
      try {
        loadConfig({ DOCPIPE_CPR_KEY: bad });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain('DOCPIPE_CPR_KEY must be 32 bytes');
      expect((err as Error).message).not.toContain(bad);
    }
  });
});
