import { spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FixtureOutcome } from '../../src/authoring/check/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { testDir } from '../helpers/test-dir.js';

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');

/** Resolves once `test` holds, polling; fails with what was seen after `ms`. */
async function until(test: () => boolean, what: () => string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('docpipe check --watch (real LibreOffice, real poppler)', () => {
  it('re-runs only the template that changed, ignores its own snapshot writes, and stops on Ctrl-C', async () => {
    const dir = testDir('docpipe-check-watch-');
    const lib = join(dir, 'lib');
    for (const id of ['lease', 'welcome-letter']) {
      cpSync(join(root, 'templates', id), join(lib, id), { recursive: true });
      rmSync(join(lib, id, 'snapshots'), { recursive: true, force: true });
    }
    const child = spawn(process.execPath, [cli, 'check', lib, '--watch', '--update', '--json'], {
      cwd: root,
      env: { ...process.env, DOCPIPE_DATA_DIR: join(dir, 'data'), DOCPIPE_OFFICE_PROCESSES: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    try {
      const runs = (): FixtureOutcome[][] =>
        stdout
          .split('\n')
          .filter((l) => l.startsWith('['))
          .map((l) => JSON.parse(l) as FixtureOutcome[]);
      const seen = (): string => `stdout: ${stdout}\nstderr: ${stderr}`;
      await until(() => runs().length === 1, seen);
      expect(runs()[0]!.map((o) => [o.template, o.fixture, o.ok, o.updated.length])).toEqual([
        // The text, the page count and each page's image.
        ['lease', 'basic', true, 4],
        ['lease', 'no-guarantor', true, 4],
        ['welcome-letter', 'remote', true, 3],
      ]);
      // The snapshots it just wrote are no change: no second run comes of them.
      await new Promise((r) => setTimeout(r, 1500));
      expect(runs()).toHaveLength(1);

      const tags = join(lib, 'welcome-letter', 'fixtures', 'remote.tags.json');
      writeFileSync(
        tags,
        readFileSync(tags, 'utf8').replace(/"value": "([^"]+)"/, '"value": "$1 X"'),
      );
      await until(() => runs().length === 2, seen);
      const second = runs()[1]!;
      expect(second.map((o) => [o.template, o.fixture, o.ok])).toEqual([
        ['welcome-letter', 'remote', true],
      ]);
      expect(second[0]!.updated).toContain('snapshots/remote.txt');

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(runs()).toHaveLength(2);
      expect(stderr).not.toMatch(/Error|error/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
  }, 180_000);
});
