import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The oldest Node that package.json's `engines` allows, 22: the package imports, and one render
 * works. The rest of the suite runs on Node 24. scripts/setup.sh installs Node 22 in test/node22,
 * a project of its own, since its bin (node) would contend with Node 24's in node_modules/.bin.
 */

const root = projectRoot();
const node22 = join(root, 'test', 'node22', 'node_modules', '.bin', 'node');

beforeAll(() => {
  if (!existsSync(node22)) throw new Error(`${node22} is missing: run scripts/setup.sh`);
});

describe('docpipe on Node 22', () => {
  it('has Node 22 to run on', () => {
    const r = spawnSync(node22, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    expect(r.stdout).toMatch(/^22\.\d+\.\d+\n$/);
  });

  it("imports the package and renders the sample lease (the README's example)", () => {
    const storage = testDir('docpipe-node22-');
    const r = spawnSync(node22, [join(root, 'examples', 'render-lease.mjs'), storage], {
      encoding: 'utf8',
      cwd: root,
      // A process that does not exit once its work is done fails here instead of hanging CI.
      timeout: 90_000,
    });
    expect(r.stderr).toBe('');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    const match = /^2 pages: (\/.+\.pdf)\n$/.exec(r.stdout);
    expect(match).not.toBeNull();
    expect(match![1]!.startsWith(storage)).toBe(true);
    expect(readFileSync(match![1]!).subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);
});
