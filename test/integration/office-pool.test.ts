import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfficePool, allocatorLibrary, canIsolateNetwork } from '../../src/render/convert/index.js';
import { fillTemplate } from '../../src/document/fill/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { officeDirOf, officeSocketsOf, officeTempDirOf } from '../helpers/office-dir.js';
import { pdfPages, pdfText } from '../helpers/pdf-text.js';

const lease = readFileSync(join(projectRoot(), 'templates/lease/template.docx'));
const leaseTags = JSON.parse(
  readFileSync(join(projectRoot(), 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
);
let pool: OfficePool;

beforeAll(async () => {
  pool = await OfficePool.start({ processes: 2 });
});
afterAll(() => pool.close());

describe('office pool', () => {
  it('is warm before the first request, and isolated as the host allows', async () => {
    expect(pool.stats()).toMatchObject({ processes: 2, ready: 2, busy: 0, conversions: 0 });
    expect(pool.stats().isolation).toBe((await canIsolateNetwork()) ? 'namespace' : 'profile');
  });

  it('converts a filled template to a PDF with the right pages and text', async () => {
    const docx = fillTemplate(lease, leaseTags).docx;
    const pdf = await pool.convert({ docx, field: 'documents[0]', title: 'Lejekontrakt' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfPages(pdf)).toBe(2);
    const text = pdfText(pdf);
    expect(text).toContain('fastsat til 9.850,00 kr. pr. måned');
    expect(text).toContain('Lejekontrakt nr. LK-2025-0042');
  });

  it('converts in parallel on both processes', async () => {
    const pdfs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => pool.convert({ docx: lease, field: `documents[${i}]` })),
    );
    for (const pdf of pdfs) expect(await pdfPages(pdf)).toBe(2);
  });

  it('fails what LibreOffice cannot open as document-conversion-failed, and keeps serving', async () => {
    // Sniff refuses these before they get here; the converter must still fail them typed, and
    // fast: an encrypted document must never wait on a password prompt.
    for (const file of [
      'docx/tika__testWORD_truncated.docx',
      'docx/poi__bug53475-password-is-pass.docx',
    ]) {
      const bytes = readFileSync(join(corpusDir(), file));
      await expect(pool.convert({ docx: bytes, field: 'documents[3]' })).rejects.toMatchObject({
        slug: 'document-conversion-failed',
        details: [
          {
            field: 'documents[3]',
            message: expect.stringContaining('could not open the document'),
          },
        ],
      });
    }
    expect(await pdfPages(await pool.convert({ docx: lease, field: 'documents[0]' }))).toBe(2);
    expect(pool.stats().ready).toBe(2);
  });

  it('writes PDF/A-2b when asked', async () => {
    const pdf = await pool.convert({
      docx: lease,
      field: 'documents[0]',
      pdfa: true,
      title: 'Arkiv',
    });
    const xmp = pdf.toString('latin1');
    expect(xmp).toMatch(/pdfaid:part(>|=")2/);
    expect(xmp).toMatch(/pdfaid:conformance(>|=")B/);
    expect(xmp).toContain('Arkiv');
  });

  it('carries nothing from one document to the next (each process reuses one frame)', async () => {
    // One process, so that every conversion goes through the same reused frame.
    const single = await OfficePool.start({ processes: 1 });
    try {
      const welcome = readFileSync(join(projectRoot(), 'templates/welcome-letter/template.docx'));
      const titled = await single.convert({ docx: lease, field: 'd', pdfa: true, title: 'Arkiv' });
      expect(titled.toString('latin1')).toContain('Arkiv');
      const truncated = readFileSync(join(corpusDir(), 'docx/tika__testWORD_truncated.docx'));
      await expect(single.convert({ docx: truncated, field: 'd' })).rejects.toMatchObject({
        slug: 'document-conversion-failed',
      });
      const next = await single.convert({ docx: welcome, field: 'd', pdfa: true });
      expect(pdfText(next)).not.toContain('Lejekontrakt');
      expect(next.toString('latin1')).not.toContain('Arkiv');
      expect(await pdfPages(next)).toBe(
        await pdfPages(await pool.convert({ docx: welcome, field: 'd' })),
      );
      expect(single.stats()).toMatchObject({ restarts: 0, ready: 1 });
    } finally {
      await single.close();
    }
  });

  it('runs the office with jemalloc when it is installed, with glibc malloc when told to', async () => {
    const maps = (pid: number) => readFileSync(`/proc/${pid}/maps`, 'utf8');
    const jemalloc = allocatorLibrary('auto');
    expect(maps(pool.pids()[0]!).includes('libjemalloc')).toBe(jemalloc !== undefined);
    const plain = await OfficePool.start({ processes: 1, allocator: 'system' });
    try {
      expect(maps(plain.pids()[0]!)).not.toContain('libjemalloc');
      expect(await pdfPages(await plain.convert({ docx: lease, field: 'd' }))).toBe(2);
    } finally {
      await plain.close();
    }
  });
});

describe('office temporary files', () => {
  it("keeps LibreOffice's temporary files beside its profile, not in the system /tmp", async () => {
    const pid = pool.pids()[0]!;
    await pool.convert({ docx: lease, field: 'documents[0]' });
    const tmpdir = officeTempDirOf(pid);
    expect(tmpdir).toMatch(/docpipe-office-[^/]+\/docpipe-[^/]+\/tmp$/);
    // LibreOffice makes its own folder (luNNNN.tmp) in the one it is given.
    expect(readdirSync(tmpdir).some((name) => /^lu.*\.tmp$/.test(name))).toBe(true);
  });

  it('leaves nothing behind when closed: folders in /dev/shm, pipe sockets in /tmp', async () => {
    const own = await OfficePool.start({ processes: 1 });
    const pid = own.pids()[0]!;
    const officeDir = officeDirOf(pid);
    const sockets = officeSocketsOf(officeDir);
    expect(sockets).toHaveLength(2);
    expect([existsSync(officeDir), ...sockets.map((s) => existsSync(s))]).toEqual([
      true,
      true,
      true,
    ]);
    await own.close();
    expect([existsSync(dirname(officeDir)), ...sockets.map((s) => existsSync(s))]).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe('office pool recycling', () => {
  it('replaces a process after its N conversions', async () => {
    const small = await OfficePool.start({ processes: 1, maxConversionsPerProcess: 2 });
    try {
      const first = small.pids()[0];
      for (let i = 0; i < 3; i++) await small.convert({ docx: lease, field: 'documents[0]' });
      expect(small.stats().restarts).toBe(1);
      expect(small.stats().conversions).toBe(3);
      expect(small.pids()).not.toContain(first);
    } finally {
      await small.close();
    }
  });

  it('replaces a process over the RSS limit', async () => {
    const small = await OfficePool.start({ processes: 1, maxRssBytes: 1024 * 1024 });
    try {
      await small.convert({ docx: lease, field: 'documents[0]' });
      expect(small.stats().restarts).toBe(1);
      expect(await pdfPages(await small.convert({ docx: lease, field: 'documents[0]' }))).toBe(2);
    } finally {
      await small.close();
    }
  });

  it('fails requests that wait past the queue deadline, with the typed failure', async () => {
    const small = await OfficePool.start({ processes: 1, queueTimeoutMs: 50 });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, (_, i) =>
          small.convert({ docx: lease, field: `documents[${i}]` }),
        ),
      );
      expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(rejected.length).toBeGreaterThan(0);
      for (const r of rejected) {
        expect(r.reason).toMatchObject({
          slug: 'document-conversion-failed',
          retryable: true,
          details: [{ message: 'the converter is busy: no office process was free within 50 ms' }],
        });
      }
    } finally {
      await small.close();
    }
  });
});
