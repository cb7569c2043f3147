import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDir } from '../helpers/test-dir.js';
import {
  LocalStorage,
  checkKey,
  signUrl,
  verifySignedUrl,
} from '../../src/render/storage/index.js';
import { SYNC_WRITE_MAX_BYTES } from '../../src/render/storage/local-storage.js';

describe('local storage', () => {
  it('stores atomically and reads back, leaving no partial files', async () => {
    const root = testDir('docpipe-storage-');
    const storage = new LocalStorage(root);
    expect(
      await storage.put('renders/ab/x.pdf', Buffer.from('%PDF-1.7 data'), 'application/pdf'),
    ).toEqual({
      key: 'renders/ab/x.pdf',
      bytes: 13,
      type: 'application/pdf',
      modified: expect.any(Date),
    });
    expect((await storage.get('renders/ab/x.pdf'))?.toString()).toBe('%PDF-1.7 data');
    expect(await storage.stat('renders/ab/x.pdf')).toMatchObject({
      bytes: 13,
      type: 'application/pdf',
    });
    expect(readdirSync(join(root, 'renders/ab'))).toEqual(['x.pdf']);
    await storage.delete('renders/ab/x.pdf');
    expect(await storage.get('renders/ab/x.pdf')).toBeUndefined();
    expect(await storage.stat('renders/ab/x.pdf')).toBeUndefined();
  });

  // Small objects are written with synchronous calls, larger ones through the thread pool.
  it.each([
    ['small', 13],
    ['at the limit', SYNC_WRITE_MAX_BYTES],
    ['large', SYNC_WRITE_MAX_BYTES + 1],
  ])('writes a %s object whole, in a folder made on demand', async (_, size) => {
    const root = testDir('docpipe-storage-');
    const storage = new LocalStorage(root);
    const data = Buffer.alloc(size, 7);
    data.write('%PDF-');
    await storage.put('renders/cd/y.pdf', data, 'application/pdf');
    expect((await storage.get('renders/cd/y.pdf'))?.equals(data)).toBe(true);
    expect(readdirSync(join(root, 'renders/cd'))).toEqual(['y.pdf']);
  });

  // Small objects are read with synchronous calls too: an empty one (a render's marker) is there
  // and empty, and what is not a file is an error, not a miss.
  it('reads an empty object as empty, and refuses a folder in an object’s place', async () => {
    const root = testDir('docpipe-storage-');
    const storage = new LocalStorage(root);
    await storage.put('renders/ab/x.used', Buffer.alloc(0), 'application/octet-stream');
    const empty = await storage.get('renders/ab/x.used');
    expect(empty?.byteLength).toBe(0);
    mkdirSync(join(root, 'renders/ab/y.pdf'), { recursive: true });
    await expect(storage.get('renders/ab/y.pdf')).rejects.toThrow(/EISDIR/);
    expect(await storage.get('renders/ab/z.pdf')).toBeUndefined();
  });

  it.each([
    ['small', 13],
    ['large', SYNC_WRITE_MAX_BYTES + 1],
  ])('leaves no partial file when a %s write fails', async (_, size) => {
    const root = testDir('docpipe-storage-');
    const storage = new LocalStorage(root);
    // A non-empty folder where the object should go: the final rename fails.
    mkdirSync(join(root, 'renders/ef/z.pdf'), { recursive: true });
    writeFileSync(join(root, 'renders/ef/z.pdf/inside'), 'x');
    await expect(
      storage.put('renders/ef/z.pdf', Buffer.alloc(size, 1), 'application/pdf'),
    ).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(join(root, 'renders/ef'))).toEqual(['z.pdf']);
  });

  it.each([
    '../etc/passwd',
    '/abs',
    'a/../b',
    'Upper.pdf',
    'a//b',
    '.hidden',
    'a/.b',
    'name with space.pdf',
    '',
  ])('refuses the key %j', async (key) => {
    expect(() => checkKey(key)).toThrow('invalid storage key');
    await expect(new LocalStorage(tmpdir()).get(key)).rejects.toThrow('invalid storage key');
  });
});

describe('signed URLs', () => {
  const secret = 'a-secret-of-enough-length';
  const later = new Date(Date.now() + 60_000);

  it('verify when untouched and in time', () => {
    const url = signUrl('https://docs.example/', 'renders/ab/x.pdf', later, secret);
    expect(url).toMatch(
      /^https:\/\/docs\.example\/files\/renders\/ab\/x\.pdf\?expires=\d+&signature=[0-9a-f]{64}$/,
    );
    expect(verifySignedUrl(url, secret)).toEqual({ ok: true, key: 'renders/ab/x.pdf' });
  });

  it('refuse a changed key or expiry, another secret, and an expired link', () => {
    const url = signUrl('https://d', 'renders/ab/x.pdf', later, secret);
    expect(verifySignedUrl(url.replace('x.pdf', 'y.pdf'), secret)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    expect(verifySignedUrl(url.replace(/expires=\d+/, 'expires=9999999999'), secret)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    expect(verifySignedUrl(url, 'another-secret-of-length')).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    const past = signUrl('https://d', 'renders/ab/x.pdf', new Date(Date.now() - 1000), secret);
    expect(verifySignedUrl(past, secret)).toEqual({
      ok: false,
      reason: 'expired',
      key: 'renders/ab/x.pdf',
    });
    // A path changed into no key at all is a changed URL too; only missing parameters are not
    // a signed URL.
    expect(verifySignedUrl('https://d/files/../x?expires=1&signature=00', secret)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    expect(verifySignedUrl('https://d/files/renders/ab/x.pdf?expires=1', secret)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('sign the name: it verifies as given, and cannot be changed, dropped, added or doubled', () => {
    const url = signUrl('https://d', 'renders/ab/x.pdf', later, secret, 'Lease æ&=.pdf');
    expect(url).toMatch(/\?expires=\d+&name=Lease%20%C3%A6%26%3D\.pdf&signature=[0-9a-f]{64}$/);
    expect(verifySignedUrl(url, secret)).toEqual({
      ok: true,
      key: 'renders/ab/x.pdf',
      name: 'Lease æ&=.pdf',
    });
    const unnamed = signUrl('https://d', 'renders/ab/x.pdf', later, secret);
    const changed = [
      url.replace('name=Lease', 'name=Lies'),
      url.replace(/&name=[^&]+/, ''),
      unnamed.replace('&signature', '&name=a.pdf&signature'),
      `${url}&name=a.pdf`,
    ];
    for (const tampered of changed)
      expect(verifySignedUrl(tampered, secret), tampered).toEqual({
        ok: false,
        reason: 'bad-signature',
      });
  });
});
