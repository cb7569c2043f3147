import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { testDir } from '../helpers/test-dir.js';

const root = projectRoot();

describe("the README's code example", () => {
  it('renders through the package as a user imports it, and exits by itself', () => {
    const storage = testDir('docpipe-example-');
    const r = spawnSync(process.execPath, [join(root, 'examples', 'render-lease.mjs'), storage], {
      encoding: 'utf8',
      cwd: root,
      // A process that does not exit once its work is done fails here instead of hanging CI.
      timeout: 90_000,
    });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    const match = /^2 pages: (\/.+\.pdf)\n$/.exec(r.stdout);
    expect(match).not.toBeNull();
    expect(match![1]!.startsWith(storage)).toBe(true);
    expect(existsSync(match![1]!)).toBe(true);
    expect(readFileSync(match![1]!).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('exports the producer client and the worker from the package entry', async () => {
    const entry = (await import(join(root, 'dist', 'src', 'index.js'))) as Record<string, unknown>;
    for (const name of ['DocpipeClient', 'DocpipeWorker', 'Renderer', 'OfficePool', 'PreparePool'])
      expect(typeof entry[name]).toBe('function');
  });
});
