import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { testDir } from '../helpers/test-dir.js';

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const templates = join(root, 'templates');

/** Every fixture of the library, as `template/fixture`, counted from the folders themselves. */
function libraryFixtures(): string[] {
  return readdirSync(templates, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(templates, d.name, 'template.docx')))
    .flatMap((d) => {
      const fixtures = join(templates, d.name, 'fixtures');
      return readdirSync(fixtures)
        .filter((f) => f.endsWith('.tags.json'))
        .map((f) => `${d.name}/${f.slice(0, -'.tags.json'.length)}`);
    })
    .sort();
}

describe('docpipe check templates/ (the library against its fixtures and snapshots)', () => {
  it('passes every fixture of every library document, one table row each', async () => {
    const expected = libraryFixtures();
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const dataDir = testDir('docpipe-check-library-');
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(process.execPath, [cli, 'check', 'templates/'], {
          cwd: root,
          env: { ...process.env, DOCPIPE_DATA_DIR: dataDir },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('error', reject);
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      },
    );
    // The whole table on failure: which fixture, which page, where.
    expect(run.stdout + run.stderr).toContain(`${expected.length} passed, 0 failed`);
    expect(run.status).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^template\s+fixture\s+pages\s+ms\s+result$/);
    const rows = lines
      .slice(1, lines.indexOf(''))
      .filter((l) => !l.startsWith(' '))
      .map((l) => l.split(/\s+/));
    expect(rows.map((r) => `${r[0]}/${r[1]}`)).toEqual(expected);
    for (const r of rows) {
      expect(r[2]).toMatch(/^[1-9]\d*$/);
      expect(r[4]).toBe('ok');
    }
  }, 600_000);
});
