import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The package as a user's project sees it once installed (`npm install /path/to/docpipe` links
 * it into node_modules): imported by its name, values at run time and types for TypeScript.
 */

const root = projectRoot();

function userProject(): string {
  const dir = testDir('docpipe-user-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'docpipe'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'user-app', type: 'module' }));
  return dir;
}

describe('the CLI, as `npx docpipe` runs it in the project', () => {
  it('is built executable: npx runs the bin file itself, and tsc writes files without the x bit', () => {
    const bin = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
    expect(statSync(bin).mode & 0o111).toBe(0o111);
    const r = spawnSync('npx', ['--no-install', 'docpipe', '--version'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('the package entry, imported by name', () => {
  it('gives the producer client, its defaults and the failure helpers at run time', () => {
    const dir = userProject();
    writeFileSync(
      join(dir, 'check.mjs'),
      [
        "import * as docpipe from 'docpipe';",
        "const names = ['DocpipeClient', 'DocpipeWorker', 'DocpipeError', 'isDocpipeError', 'isQueueUnavailableError', 'DEFAULT_CLIENT_OPTIONS'];",
        'console.log(JSON.stringify(Object.fromEntries(names.map((n) => [n, typeof docpipe[n]]))));',
        'console.log(typeof docpipe.DocpipeClient.connect, docpipe.DEFAULT_CLIENT_OPTIONS.attempts);',
      ].join('\n'),
    );
    const r = spawnSync(process.execPath, ['check.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [types, connect] = r.stdout.trim().split('\n');
    expect(JSON.parse(types!)).toEqual({
      DocpipeClient: 'function',
      DocpipeWorker: 'function',
      DocpipeError: 'function',
      isDocpipeError: 'function',
      isQueueUnavailableError: 'function',
      DEFAULT_CLIENT_OPTIONS: 'object',
    });
    expect(connect).toBe('function 3');
  });

  it("type-checks a user's TypeScript that uses the client and its types", () => {
    const dir = userProject();
    writeFileSync(
      join(dir, 'app.ts'),
      [
        "import { DocpipeClient, isDocpipeError, type DocpipeClientOptions, type DocumentInput, type DocumentJobResult } from 'docpipe';",
        'export async function send(options: DocpipeClientOptions, doc: DocumentInput): Promise<DocumentJobResult | string> {',
        '  const client = await DocpipeClient.connect(options);',
        '  try {',
        '    return await client.render(doc);',
        '  } catch (err) {',
        '    if (isDocpipeError(err)) return err.slug;',
        '    throw err;',
        '  } finally {',
        '    await client.close();',
        '  }',
        '}',
        '// A wrong member must not type-check: the types are real, not any.',
        '// @ts-expect-error `contents` is not a member of DocumentInput',
        "export const wrong: DocumentInput = { name: 'x', contents: new Uint8Array() };",
      ].join('\n'),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--skipLibCheck',
        '--types',
        'node',
        '--typeRoots',
        join(root, 'node_modules', '@types'),
        'app.ts',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
