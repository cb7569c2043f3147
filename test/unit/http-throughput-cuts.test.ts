import { describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { convertInputs } from '../../src/surfaces/http/convert/convert-sources.js';
import {
  VerifiedKeyCache,
  type CheckedKey,
  type ExpiringKeyVerifier,
  type KeyVerification,
} from '../../src/service/keys/index.js';

/**
 * What the HTTP path's CPU cuts keep: the verified-key cache (a revocation takes effect within
 * its TTL, an expiry exactly, refusals are never remembered) and the base64 check of a convert
 * document (the same verdict as the regex it stands in front of, for every kind of text).
 */

const IDENTITY = { id: '0123456789abcdef', company: 'acme', name: 'server' };

/** A key store whose answer the test changes, counting what it is asked. */
function scriptedStore(
  answer: CheckedKey,
): ExpiringKeyVerifier & { asked: number; answer: CheckedKey } {
  const store = {
    asked: 0,
    answer,
    check(token: string): Promise<CheckedKey> {
      void token;
      store.asked++;
      return Promise.resolve(structuredClone(store.answer));
    },
    async verify(token: string): Promise<KeyVerification> {
      return (await store.check(token)).verification;
    },
  };
  return store;
}

const working = (expiresAt?: Date): CheckedKey => ({
  verification: { ok: true, identity: { ...IDENTITY } },
  ...(expiresAt ? { expiresAt } : {}),
});

describe('VerifiedKeyCache', () => {
  it('asks the store once per TTL for a working key, and a revocation takes effect after it', async () => {
    const clock = { t: 1_000 };
    const store = scriptedStore(working());
    const cache = new VerifiedKeyCache(store, { ttlMs: 5000, now: () => clock.t });
    expect(await cache.verify('key-a')).toEqual({ ok: true, identity: IDENTITY });
    clock.t += 4999;
    expect(await cache.verify('key-a')).toEqual({ ok: true, identity: IDENTITY });
    expect(store.asked).toBe(1);
    store.answer = { verification: { ok: false, reason: 'revoked' } };
    clock.t += 1;
    expect(await cache.verify('key-a')).toEqual({ ok: false, reason: 'revoked' });
    expect(await cache.verify('key-a')).toEqual({ ok: false, reason: 'revoked' });
    expect(store.asked).toBe(3);
    expect(cache.size).toBe(0);
  });

  it('never reuses a key past its expiry, even within the TTL', async () => {
    const clock = { t: 10_000 };
    const store = scriptedStore(working(new Date(11_000)));
    const cache = new VerifiedKeyCache(store, { ttlMs: 5000, now: () => clock.t });
    expect((await cache.verify('key-a')).ok).toBe(true);
    clock.t = 10_999;
    expect((await cache.verify('key-a')).ok).toBe(true);
    expect(store.asked).toBe(1);
    store.answer = { verification: { ok: false, reason: 'expired' } };
    clock.t = 11_000;
    expect(await cache.verify('key-a')).toEqual({ ok: false, reason: 'expired' });
    expect(store.asked).toBe(2);
  });

  it('remembers no refusal, keeps keys apart, and forgets the oldest when full', async () => {
    const store = scriptedStore({ verification: { ok: false, reason: 'invalid' } });
    const cache = new VerifiedKeyCache(store, { ttlMs: 5000, maxEntries: 2, now: () => 0 });
    for (let i = 0; i < 3; i++) await cache.verify('wrong');
    expect(store.asked).toBe(3);
    expect(cache.size).toBe(0);
    store.answer = working();
    for (const key of ['a', 'b', 'c']) await cache.verify(key);
    expect(cache.size).toBe(2);
    store.asked = 0;
    await cache.verify('c');
    await cache.verify('b');
    expect(store.asked).toBe(0);
    await cache.verify('a');
    expect(store.asked).toBe(1);
  });

  it('hands each request its own identity', async () => {
    const cache = new VerifiedKeyCache(scriptedStore(working()), { now: () => 0 });
    const first = await cache.verify('key-a');
    if (!first.ok) throw new Error('the key should work');
    first.identity.company = 'changed by a request';
    expect(await cache.verify('key-a')).toEqual({ ok: true, identity: IDENTITY });
  });

  it('with a TTL of 0 asks the store every time', async () => {
    const store = scriptedStore(working());
    const cache = new VerifiedKeyCache(store, { ttlMs: 0 });
    for (let i = 0; i < 3; i++) expect((await cache.verify('key-a')).ok).toBe(true);
    expect(store.asked).toBe(3);
    expect(() => new VerifiedKeyCache(store, { ttlMs: -1 })).toThrow(/ttlMs/);
    expect(() => new VerifiedKeyCache(store, { maxEntries: 0 })).toThrow(/maxEntries/);
  });
});

describe('convert document base64', () => {
  const deps = {
    resolveDocumentUrl: () => Promise.resolve(undefined),
    storage: {} as never,
  };
  const REGEX = /^[A-Za-z0-9+/]*={0,2}$/;
  /** The verdict before the fast path: line breaks removed, then the regex and the length. */
  const regexVerdict = (file: string) => {
    const text = file.replace(/[\r\n]/g, '');
    return REGEX.test(text) && text.length % 4 === 0;
  };
  const decode = async (file: string) => {
    try {
      const [input] = await convertInputs([{ file, name: 'x' }], undefined, 'acme', deps);
      return { ok: true as const, bytes: Buffer.from(input!.content!) };
    } catch (err) {
      if (!(err instanceof DocpipeError)) throw err;
      return { ok: false as const, messages: err.details.map((d) => d.message) };
    }
  };

  const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
  const canonical = bytes.toString('base64');
  const texts: [string, string][] = [
    ['canonical', canonical],
    ['one byte, two pads', 'QQ=='],
    ['two bytes, one pad', 'QUI='],
    ['wrapped at 76 with CRLF', canonical.replace(/(.{76})/g, '$1\r\n')],
    ['wrapped at 76 with LF', canonical.replace(/(.{76})/g, '$1\n')],
    ['not canonical: bits after the last byte', 'QR=='],
    ['not canonical, wrapped', `${canonical.slice(0, 76)}\nQR==`],
    ['base64url alphabet', 'ab-_'],
    ['padding inside', 'ab=c'],
    ['three pads', 'A==='],
    ['length not a multiple of four', 'QUJD' + 'QQ'],
    ['unpadded', 'QQ'],
    ['space', 'QU JD'],
    ['tab', 'QUJD\t'],
    ['non-ASCII', 'QUJDé==='],
    ['only pads', '===='],
    ['empty after line breaks', '\r\n'],
  ];

  it.each(texts)('%s: the same verdict as the regex, and the same bytes', async (_, file) => {
    const outcome = await decode(file);
    const valid = regexVerdict(file);
    const text = file.replace(/[\r\n]/g, '');
    if (valid && Buffer.from(text, 'base64').byteLength > 0) {
      expect(outcome).toEqual({ ok: true, bytes: Buffer.from(text, 'base64') });
    } else {
      expect(outcome.ok).toBe(false);
      expect(outcome.ok ? [] : outcome.messages).toEqual([
        valid
          ? 'is empty: no document bytes'
          : expect.stringMatching(/^is neither base64 content nor a URL/),
      ]);
    }
  });

  it('covers valid and invalid texts alike', () => {
    const verdicts = texts.map(([, file]) => regexVerdict(file));
    expect(verdicts.filter(Boolean)).toHaveLength(8);
    expect(verdicts.filter((v) => !v)).toHaveLength(9);
  });

  it('decodes a wrapped document to its bytes', async () => {
    const outcome = await decode(canonical.replace(/(.{76})/g, '$1\r\n'));
    expect(outcome).toEqual({ ok: true, bytes });
  });
});
