import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/render/storage/index.js';
import { testDir } from '../helpers/test-dir.js';

/** Issue 31: a refused or deleted case left its empty folders on the disk. */
describe('local storage removes the folders a delete leaves empty', () => {
  it('up to the root, which stays, and never a folder that still holds something', async () => {
    const root = join(testDir('docpipe-prune-'), 'storage');
    const storage = new LocalStorage(root);
    await storage.put('cases/61/c1/0.pdf', Buffer.from('a'), 'application/pdf');
    await storage.put('cases/61/c1/1.pdf', Buffer.from('b'), 'application/pdf');
    await storage.put('cases/61/c2/0.pdf', Buffer.from('c'), 'application/pdf');

    await storage.delete('cases/61/c1/0.pdf');
    expect(readdirSync(join(root, 'cases/61/c1'))).toEqual(['1.pdf']);
    await storage.delete('cases/61/c1/1.pdf');
    expect(existsSync(join(root, 'cases/61/c1'))).toBe(false);
    expect(readdirSync(join(root, 'cases/61'))).toEqual(['c2']);
    await storage.delete('cases/61/c2/0.pdf');
    expect(readdirSync(root)).toEqual([]);
    // A delete of what is not there prunes nothing it should not, and throws nothing.
    await storage.delete('renders/ab/none.pdf');
    expect(existsSync(root)).toBe(true);
  });

  it('writes again into a folder a delete just pruned', async () => {
    const storage = new LocalStorage(join(testDir('docpipe-prune-'), 'storage'));
    await storage.put('renders/ab/one.pdf', Buffer.from('1'), 'application/pdf');
    // The delete empties renders/ab/ while the next write into it is under way.
    await Promise.all([
      storage.delete('renders/ab/one.pdf'),
      storage.put('renders/ab/two.pdf', Buffer.alloc(2 * 1024 * 1024, 2), 'application/pdf'),
    ]);
    expect((await storage.get('renders/ab/two.pdf'))?.byteLength).toBe(2 * 1024 * 1024);
    expect(await storage.get('renders/ab/one.pdf')).toBeUndefined();
  });
});
