import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cprKeyPath, ensureCprKeyFile, readCprKeyFile } from '../../src/app/config/index.js';
import { testDir } from '../helpers/test-dir.js';

describe("the data folder's CPR key", () => {
  it('is made once, 32 bytes, mode 0600, and the same key on every later start', async () => {
    const dir = testDir('cpr-key-');
    expect(await readCprKeyFile(dir)).toBeUndefined();
    const key = await ensureCprKeyFile(dir);
    expect(key).toHaveLength(32);
    expect(statSync(cprKeyPath(dir)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(cprKeyPath(dir), 'utf8').trim(), 'base64')).toEqual(key);
    expect(await ensureCprKeyFile(dir)).toEqual(key);
    expect(await readCprKeyFile(dir)).toEqual(key);
  });

  it('refuses a damaged file instead of making a new key that cannot read the stored numbers', async () => {
    const dir = testDir('cpr-key-');
    writeFileSync(cprKeyPath(dir), 'not a key\n');
    await expect(ensureCprKeyFile(dir)).rejects.toThrow(/is not a CPR key.*DOCPIPE_CPR_KEY/);
    expect(readFileSync(cprKeyPath(dir), 'utf8')).toBe('not a key\n');
  });
});
