import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PerCallConverter,
  hardenedRegistry,
  officePipeSockets,
} from '../../src/render/convert/index.js';
import { fillTemplate } from '../../src/document/fill/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { pdfPages, pdfText } from '../helpers/pdf-text.js';
import { testDir } from '../helpers/test-dir.js';
import { waitUntil } from '../helpers/wait.js';

const root = projectRoot();
const wrapper = join(root, 'workers', 'soffice-hardened.sh');
const lease = readFileSync(join(root, 'templates/lease/template.docx'));
const leaseTags = JSON.parse(
  readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
);
const corpus = (file: string) => readFileSync(join(corpusDir(), 'docx', file));
/** 180 pages: about ten seconds of a cold soffice, long enough to stop mid-conversion. */
const slow = () => corpus('poi__bug65649.docx');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Processes whose command line names `dir`: the soffice of a conversion under way there. */
function processesIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/**
 * The socket in /tmp of the soffice converting in the converter folder `dir`, once its profile
 * (libreoffice-convert's `soffice-*` folder) is there.
 */
function profileSocketIn(dir: string): string | undefined {
  const profile = readdirSync(dir).find((name) => name.startsWith('soffice'));
  return profile && officePipeSockets(`file://${join(dir, profile)}`)[0];
}

/** What is left in the converter folder once libreoffice-convert removed a conversion's folders. */
async function leftIn(dir: string): Promise<string[]> {
  // libreoffice-convert removes them just after it hands over the result.
  await sleep(50);
  return readdirSync(dir);
}

describe('libreoffice-convert converter (a cold, hardened soffice per document)', () => {
  let converter: PerCallConverter;
  beforeAll(async () => {
    converter = await PerCallConverter.start({ conversionTimeoutMs: 60_000 });
  });
  afterAll(() => converter.close());

  it('converts the filled lease (W1) to a real PDF and keeps nothing of it', async () => {
    const docx = fillTemplate(lease, leaseTags).docx;
    const pdf = await converter.convert({ docx, field: 'documents[0]' });
    expect(await pdfPages(pdf)).toBe(2);
    const text = pdfText(pdf);
    expect(text).toContain('fastsat til 9.850,00 kr. pr. måned');
    expect(text).toContain('Lejekontrakt nr. LK-2025-0042');
    expect(await leftIn(converter.workDir)).toEqual(['registrymodifications.xcu']);
    expect(processesIn(converter.workDir)).toEqual([]);
  });

  it('converts a corpus document', async () => {
    const pdf = await converter.convert({
      docx: corpus('gotenberg__pages_3.docx'),
      field: 'documents[1]',
    });
    expect(await pdfPages(pdf)).toBe(3);
    expect(pdfText(pdf).match(/Page \d/g)).toEqual(['Page 1', 'Page 2', 'Page 3']);
  });

  it('fails what LibreOffice cannot open as document-conversion-failed, at once', async () => {
    // A truncated package, and an encrypted one that must never wait on a password prompt.
    for (const file of ['tika__testWORD_truncated.docx', 'poi__bug53475-password-is-pass.docx']) {
      // It fails on what LibreOffice said, not on the deadline: it did not hang.
      await expect(
        converter.convert({ docx: corpus(file), field: 'documents[2]' }),
      ).rejects.toMatchObject({
        slug: 'document-conversion-failed',
        details: [
          {
            field: 'documents[2]',
            message: expect.stringMatching(
              /^LibreOffice could not convert the document .*: error: soffice wrote no pdf .*source file could not be loaded/,
            ),
          },
        ],
      });
    }
    expect(await leftIn(converter.workDir)).toEqual(['registrymodifications.xcu']);
  });

  it('runs at most `processes` soffice at once; one that waits past queueTimeoutMs is busy', async () => {
    const one = await PerCallConverter.start({ processes: 1, queueTimeoutMs: 500 });
    try {
      const first = one.convert({ docx: lease, field: 'documents[0]' });
      const second = one.convert({ docx: lease, field: 'documents[1]' });
      // A cold soffice takes about a second: the second still waits for its turn after 500 ms.
      const busy = await second.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(busy).toMatchObject({
        slug: 'document-conversion-failed',
        details: [
          {
            field: 'documents[1]',
            message: 'the converter is busy: no soffice run was free within 500 ms',
          },
        ],
      });
      // Worth asking again later, as the pool's busy failure.
      expect((busy as { retryable: boolean }).retryable).toBe(true);
      expect(await pdfPages(await first)).toBe(2);
      // Its turn is free again.
      expect(await pdfPages(await one.convert({ docx: lease, field: 'documents[2]' }))).toBe(2);
    } finally {
      await one.close();
    }
  });

  it('stops a conversion at its deadline with all its processes, and leaves nothing behind', async () => {
    const short = await PerCallConverter.start({ conversionTimeoutMs: 4000 });
    const dir = short.workDir;
    try {
      const conversion = short.convert({ docx: slow(), field: 'documents[3]' });
      const failed = expect(conversion).rejects.toMatchObject({
        slug: 'document-conversion-failed',
        details: [
          {
            field: 'documents[3]',
            message: expect.stringMatching(/^the conversion did not finish within 4000 ms/),
          },
        ],
      });
      // soffice is up and has its socket: it is killed, not shut down, and does not remove it.
      let socket: string | undefined;
      await waitUntil(
        () => (socket = profileSocketIn(dir)) !== undefined && existsSync(socket),
        4000,
        'the socket of the soffice converting',
      );
      await failed;
      expect(processesIn(dir)).toEqual([]);
      expect(existsSync(socket!)).toBe(false);
      expect(await leftIn(dir)).toEqual(['registrymodifications.xcu']);
    } finally {
      await short.close();
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('takes soffice down and removes its folder when the docpipe process dies mid-conversion', async () => {
    const module = JSON.stringify(join(root, 'dist/src/render/convert/index.js'));
    const owner = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { PerCallConverter } = await import(${module});
         const converter = await PerCallConverter.start();
         console.log(converter.workDir);
         const docx = (await import('node:fs')).readFileSync(${JSON.stringify(join(corpusDir(), 'docx/poi__bug65649.docx'))});
         await converter.convert({ docx, field: 'd' }).catch(() => {});`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const dir = await new Promise<string>((resolve, reject) => {
      owner.stdout.once('data', (d: Buffer) => resolve(String(d).trim()));
      owner.once('exit', () => reject(new Error('the owner exited before its converter started')));
    });
    let socket: string | undefined;
    await waitUntil(
      () => (socket = profileSocketIn(dir)) !== undefined && existsSync(socket),
      10_000,
      'the socket of the soffice converting',
    );
    expect(processesIn(dir).length).toBeGreaterThan(0);
    owner.kill('SIGKILL');
    await waitUntil(() => processesIn(dir).length === 0, 10_000, 'soffice gone');
    await waitUntil(() => !existsSync(dir), 5000, 'converter folder removed');
    expect(existsSync(socket!)).toBe(false);
  });
});

describe('soffice-hardened.sh judges a conversion by the file soffice wrote', () => {
  const run = promisify(execFile);

  /** Runs the wrapper as libreoffice-convert does, with `script` standing in for soffice. */
  async function convertWith(script: string) {
    const dir = testDir('docpipe-lo-wrapper-');
    const converterDir = join(dir, 'docpipe-lo-convert-test');
    const fake = join(dir, 'fake-soffice.sh');
    writeFileSync(fake, `#!/bin/sh\n${script}\n`);
    chmodSync(fake, 0o755);
    const xcu = join(dir, 'hardened.xcu');
    writeFileSync(xcu, hardenedRegistry());
    const profile = join(converterDir, 'soffice-1');
    const outdir = join(converterDir, 'out');
    const args = [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      '--convert-to',
      'pdf:writer_pdf_Export',
      '--outdir',
      outdir,
      join(outdir, 'document.docx'),
    ];
    const env = {
      PATH: process.env.PATH,
      DOCPIPE_SOFFICE: fake,
      DOCPIPE_HARDENED_XCU: xcu,
      DOCPIPE_CONVERT_DIR: converterDir,
      DOCPIPE_CONVERT_TIMEOUT: '20',
      DOCPIPE_NETNS: '0',
    };
    const result = await run(wrapper, args, { env }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    return { ...result, profile, outdir };
  }

  it('a PDF written is success, whatever soffice said on stderr', async () => {
    const { code, stderr, outdir } = await convertWith(
      'mkdir -p "$6" && printf "%%PDF-1.4" > "$6/document.pdf"; echo "error : Unknown IO error" >&2',
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(readFileSync(join(outdir, 'document.pdf'), 'latin1')).toBe('%PDF-1.4');
  });

  it('no PDF is a failure that says why, even when soffice exits 0', async () => {
    const { code, stderr } = await convertWith(
      'echo "Error: source file could not be loaded" >&2; exit 0',
    );
    expect(code).toBe(1);
    expect(stderr).toBe(
      'error: soffice wrote no pdf (exit status 0)\nError: source file could not be loaded\n',
    );
  });

  it('runs soffice with the hardened profile, closed proxies, and its files inside the profile', async () => {
    const { code, profile } = await convertWith('env > "$HOME/env.txt"; exit 0');
    expect(code).toBe(1);
    expect(readFileSync(join(profile, 'user', 'registrymodifications.xcu'), 'utf8')).toBe(
      hardenedRegistry(),
    );
    const env = Object.fromEntries(
      readFileSync(join(profile, 'env.txt'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(env).toMatchObject({
      HOME: profile,
      TMPDIR: join(profile, 'tmp'),
      http_proxy: 'http://127.0.0.1:9',
      https_proxy: 'http://127.0.0.1:9',
      // libxml2 takes only an ftp:// proxy for FTP; any other it refuses and goes direct.
      ftp_proxy: 'ftp://127.0.0.1:9',
      no_proxy: '',
    });
  });
});
