import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';

/**
 * docpipe is built, tested and shipped on Node 24, whatever Node the machine has: npm scripts and
 * npx run on node_modules/.bin/node, the `node` devDependency (scripts/setup.sh). These tests run
 * in vitest's forks, started with the Node that runs vitest: a run on the machine's own Node means
 * the tests were started outside npm (or set-up did not install that Node).
 */

const root = projectRoot();

interface Manifest {
  engines: { node: string };
  devDependencies: Record<string, string>;
}
const manifest = (folder: string): Manifest =>
  JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as Manifest;
const majorOf = (range: string): string => /^[\^~]?(\d+)\./.exec(range)![1]!;
const major = (version: string): string => version.replace(/^v/, '').split('.')[0]!;

describe('the Node docpipe runs on', () => {
  it('runs the tests on Node 24, the `node` devDependency', () => {
    expect(majorOf(manifest('').devDependencies.node!)).toBe('24');
    expect(major(process.version)).toBe('24');
  });

  it('gives the processes it starts (process.execPath) the same Node', () => {
    const r = spawnSync(process.execPath, ['-p', 'process.version'], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe(process.version);
  });

  it('allows Node 22 and newer, and its smoke test installs the oldest of them', () => {
    expect(manifest('').engines.node).toBe('>=22');
    expect(majorOf(manifest('test/node22').devDependencies.node!)).toBe('22');
  });

  it('type-checks against the Node 24 API', () => {
    expect(majorOf(manifest('').devDependencies['@types/node']!)).toBe('24');
  });
});
