import { chmodSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTreePrivate } from '../../src/base/files/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { testDir } from '../helpers/test-dir.js';

const modeOf = (path: string) => lstatSync(path).mode & 0o777;

describe('what docpipe keeps on local disk', () => {
  it('stores documents 0600 in folders 0700, small (written at once) and large alike', async () => {
    const root = join(testDir('docpipe-modes-'), 'storage');
    const storage = new LocalStorage(root);
    await storage.put(
      'companies/acme/cases/c1/small.pdf',
      Buffer.from('%PDF-1.7'),
      'application/pdf',
    );
    await storage.put(
      'companies/acme/cases/c1/large.pdf',
      // Past the 1 MiB that is written with synchronous calls.
      Buffer.alloc(2 * 1024 * 1024),
      'application/pdf',
    );
    expect(modeOf(join(root, 'companies/acme/cases/c1/small.pdf'))).toBe(0o600);
    expect(modeOf(join(root, 'companies/acme/cases/c1/large.pdf'))).toBe(0o600);
    for (const dir of [
      '',
      'companies',
      'companies/acme',
      'companies/acme/cases',
      'companies/acme/cases/c1',
    ])
      expect(modeOf(join(root, dir)), dir).toBe(0o700);
  });

  it('closes a tree left open, walking only folders that were open, and follows no link', async () => {
    const dir = testDir('docpipe-modes-');
    const outside = join(testDir('docpipe-outside-'), 'theirs.txt');
    writeFileSync(outside, 'not docpipe', { mode: 0o644 });
    chmodSync(outside, 0o644);
    const tree = join(dir, 'storage');
    mkdirSync(join(tree, 'a', 'b'), { recursive: true, mode: 0o755 });
    writeFileSync(join(tree, 'a', 'b', 'doc.pdf'), 'x', { mode: 0o644 });
    chmodSync(join(tree, 'a', 'b', 'doc.pdf'), 0o644);
    symlinkSync(outside, join(tree, 'a', 'link'));
    expect(await makeTreePrivate(tree)).toBe(4);
    expect([tree, join(tree, 'a'), join(tree, 'a', 'b')].map(modeOf)).toEqual([
      0o700, 0o700, 0o700,
    ]);
    expect(modeOf(join(tree, 'a', 'b', 'doc.pdf'))).toBe(0o600);
    expect(modeOf(outside)).toBe(0o644);
    // Private now: a second pass changes nothing.
    expect(await makeTreePrivate(tree)).toBe(0);
    expect(await makeTreePrivate(join(dir, 'gone'))).toBe(0);
  });
});
