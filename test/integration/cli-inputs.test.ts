import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Inputs that must not take the CLI down: endless devices and pipes are read up to the size
 * limit and no further, and JSON nested past the bound is refused before anything walks it.
 */
const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const lease = join(root, 'templates', 'lease', 'template.docx');
const LIMIT = 1024 * 1024;
const env = {
  ...process.env,
  DOCPIPE_ENGINE_THREADS: '1',
  DOCPIPE_MAX_INPUT_BYTES: String(LIMIT),
};

function docpipe(dataDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...env, DOCPIPE_DATA_DIR: dataDir },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

describe('CLI inputs past the limits', () => {
  it('stops reading /dev/zero at the size limit: too-large, exit 1', () => {
    const dir = testDir('cli-inputs-');
    const r = docpipe(dir, 'sniff', '--json', '/dev/zero', lease);
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; kind: string; reason: string | null });
    expect(lines).toEqual([
      expect.objectContaining({ file: '/dev/zero', kind: 'unsupported', reason: 'too-large' }),
      expect.objectContaining({ file: lease, kind: 'docx', reason: null }),
    ]);
  });

  it('caps a FIFO the same way, and reads a short one whole', async () => {
    const dir = testDir('cli-inputs-');
    const run = (bytes: number) =>
      new Promise<{ status: number | null; stdout: string }>((resolve, reject) => {
        // The shape of `docpipe sniff <(endless)`: a named pipe with a writer that keeps going.
        const fifo = join(dir, `in-${bytes}`);
        expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
        const child = spawn(process.execPath, [cli, 'sniff', '--json', fifo], {
          cwd: root,
          env: { ...env, DOCPIPE_DATA_DIR: dir },
        });
        let stdout = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        const writer = createWriteStream(fifo);
        writer.on('error', () => undefined); // docpipe stops reading: EPIPE is expected
        writer.end(Buffer.alloc(bytes, 0x41));
        child.on('error', reject);
        child.on('exit', (status) => {
          writer.destroy();
          resolve({ status, stdout });
        });
      });
    const big = await run(3 * LIMIT);
    expect(big.status).toBe(1);
    expect(JSON.parse(big.stdout)).toMatchObject({ kind: 'unsupported', reason: 'too-large' });
    const small = await run(1000);
    expect(small.status).toBe(1);
    expect(JSON.parse(small.stdout)).toMatchObject({ kind: 'unsupported', reason: 'unknown' });
  });

  it('renders nothing from an input past the limit: the typed failure, exit 1', () => {
    const dir = testDir('cli-inputs-');
    const big = join(dir, 'big.pdf');
    writeFileSync(big, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(LIMIT)]));
    const r = docpipe(dir, 'render', big, '--out', join(dir, 'out.pdf'), '--json');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      error: 'unsupported-file-type',
      details: [{ field: 'document', message: expect.stringMatching(/^too-large: more than/) }],
    });
  });

  it('refuses a folder as an input: bad usage, exit 2', () => {
    const dir = testDir('cli-inputs-');
    const r = docpipe(dir, 'sniff', dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('it is a folder');
  });

  it('names a malformed --company before looking for Redis: bad usage, exit 2', () => {
    const dir = testDir('cli-inputs-');
    for (const args of [
      ['enqueue', lease, '--company', 'acme corp'],
      ['rerender', join(root, 'templates'), '--company', 'acme corp'],
    ]) {
      const r = docpipe(dir, ...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(
        'docpipe: --company must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit (got "acme corp")\n',
      );
    }
  });

  it('refuses tags JSON nested 100,000 levels deep with a message, exit 2, no stack overflow', () => {
    const dir = testDir('cli-inputs-');
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    for (const out of ['out.pdf', 'out.docx']) {
      const r = docpipe(dir, 'render', lease, '--tags', deep, '--out', join(dir, out), '--json');
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('more than 64 levels deep');
      expect(r.stderr).not.toContain('Maximum call stack');
    }
    // A value nested just within the bound still reaches fill, which names what is wrong with it.
    const nested = join(dir, 'nested.json');
    writeFileSync(
      nested,
      JSON.stringify([
        {
          tag: 'tenant_name',
          value: JSON.parse(`${'['.repeat(60)}${']'.repeat(60)}`),
          type: 'text',
        },
      ]),
    );
    const r = docpipe(
      dir,
      'render',
      lease,
      '--tags',
      nested,
      '--out',
      join(dir, 'n.docx'),
      '--json',
    );
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'validation-failed' });
  });

  it('makes the folder an output goes into', () => {
    const dir = testDir('cli-inputs-');
    const out = join(dir, 'new', 'folder', 'lease.docx');
    const r = docpipe(
      dir,
      'render',
      lease,
      '--tags',
      join(root, 'templates', 'lease', 'fixtures', 'basic.tags.json'),
      '--out',
      out,
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(out).subarray(0, 2).toString()).toBe('PK');
  });

  it("keeps pdf-lib's notes about a PDF out of stderr, where JSON logs go", () => {
    const dir = testDir('cli-inputs-');
    // pdf-lib warns "Parsed number that is too large for some PDF readers" on this one.
    const pdf = join(corpusDir(), 'pdf', 'pdfjs__REDHAT-1531897-0.pdf');
    const r = docpipe(dir, 'render', pdf, '--out', join(dir, 'out.pdf'), '--json');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'unsupported-file-type' });
    expect(r.stderr).toBe('');
  });
});
