import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { checkPdf, finishProducedPdf } from '../../src/formats/pdf/index.js';
import { MAX_PAGE_TREE_DEPTH } from '../../src/formats/pdf/page-tree.js';
import { sniff } from '../../src/formats/sniff/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { edit } from '../helpers/pdf-mutants.js';

async function pdfWithPages(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage();
  // addDefaultPage: false, or pdf-lib would give a page-less document a blank page.
  return doc.save({ addDefaultPage: false });
}

/** A classic (table, no object streams) PDF with text on each page, as LibreOffice writes. */
async function classicPdf(
  pages = 2,
  shape?: (doc: PDFDocument) => void | Promise<void>,
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++)
    doc.addPage().drawText(`Lejekontrakt side ${i + 1}`, { x: 50, y: 700, font });
  await shape?.(doc);
  return Buffer.from(
    await doc.save({
      useObjectStreams: false,
      addDefaultPage: false,
      updateFieldAppearances: false,
    }),
  );
}

/** The first match of a pattern replaced, cross-reference offsets kept right unless told not. */
function patch(
  pdf: Buffer,
  find: RegExp,
  replace: (m: RegExpExecArray) => string,
  keepOffsets = true,
): Buffer {
  const m = new RegExp(find.source, find.flags.replace('g', '')).exec(pdf.toString('latin1'));
  if (!m) throw new Error(`${String(find)} is not in the PDF`);
  return edit(pdf, m.index, m[0].length, replace(m), keepOffsets);
}

/** The message of the failure a check gives, or 'accepted'. */
async function verdict(pdf: Uint8Array, origin: 'input' | 'produced' = 'input'): Promise<string> {
  try {
    await checkPdf(pdf, 'documents[0]', origin);
    return 'accepted';
  } catch (err) {
    return (err as { details: { message: string }[] }).details[0]!.message;
  }
}

const corpusPdf = (name: string) => readFileSync(join(corpusDir(), 'pdf', name));

describe('PDF check', () => {
  it('counts pages of a good PDF', async () => {
    expect(await checkPdf(await pdfWithPages(3), 'documents[0]')).toEqual({ pages: 3 });
    expect(await checkPdf(await classicPdf(2), 'documents[0]')).toEqual({ pages: 2 });
  });

  it('refuses a PDF without pages or that does not parse, naming the field', async () => {
    await expect(checkPdf(await pdfWithPages(0), 'documents[2]')).rejects.toMatchObject({
      slug: 'unsupported-file-type',
      details: [{ field: 'documents[2]', message: 'damaged: has no pages' }],
    });
    await expect(checkPdf(Buffer.from('%PDF-1.4\ngarbage'), 'documents[0]')).rejects.toMatchObject({
      slug: 'unsupported-file-type',
    });
    await expect(
      checkPdf(Buffer.from('%PDF-1.4\ngarbage'), 'documents[0]', 'produced'),
    ).rejects.toMatchObject({
      slug: 'document-conversion-failed',
    });
  });

  it('writes Title and Producer into produced PDFs, and leaves PDF/A bytes alone', async () => {
    const pdf = await pdfWithPages(2);
    const { pdf: stamped, pages } = await finishProducedPdf(
      pdf,
      'documents[0]',
      { title: 'Lejekontrakt Å', producer: 'docpipe 9' },
      false,
    );
    expect(pages).toBe(2);
    // updateMetadata: false, or pdf-lib itself would overwrite the Producer while loading.
    const doc = await PDFDocument.load(stamped, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Lejekontrakt Å');
    expect(doc.getProducer()).toBe('docpipe 9');
    const kept = await finishProducedPdf(pdf, 'documents[0]', { title: 't', producer: 'p' }, true);
    expect(Buffer.from(kept.pdf).equals(Buffer.from(pdf))).toBe(true);
  });

  it('accepts what it stamps: a stored render passes the check that answers cache hits', async () => {
    const stamp = { title: 'Lejekontrakt', producer: 'docpipe 9' };
    // A classic table gets an appended update; object streams are saved again; a linearized
    // file's update changes its length, so readers no longer take it for linearized.
    for (const pdf of [
      await classicPdf(2),
      await pdfWithPages(2),
      corpusPdf('file-type__fixture-fast-web.pdf'),
    ]) {
      const { pdf: stamped, pages } = await finishProducedPdf(pdf, 'documents[0]', stamp, false);
      expect(Buffer.from(stamped).equals(Buffer.from(pdf))).toBe(false);
      expect(await checkPdf(stamped, 'documents[0]', 'produced')).toEqual({ pages });
    }
  });
});

describe('PDF names are decoded before any decision', () => {
  // Two corpus files whose only trailer follows the table, so re-spelling the key moves no
  // object: the files stay whole, and a reader sees an encrypted PDF in each.
  const encrypted = ['pdfjs__bug1782186.pdf', 'pdfjs__issue6010_1.pdf'];
  const spellings = ['/Encr#79pt', '/#45ncrypt', '/E#6ecrypt', '/E#6Ecrypt'];

  it.each(encrypted.flatMap((file) => spellings.map((s) => [file, s] as const)))(
    '%s with /Encrypt spelled %s is encrypted to sniff and to the check',
    async (file, spelling) => {
      const original = corpusPdf(file);
      const respelled = Buffer.from(
        original.toString('latin1').replace(/\/Encrypt(?=[\s<\d])/g, spelling),
        'latin1',
      );
      expect(respelled.toString('latin1')).toContain(`${spelling}`);
      expect(respelled.toString('latin1')).not.toMatch(/\/Encrypt[\s<\d]/);
      expect(await sniff(respelled)).toMatchObject({ kind: 'unsupported', reason: 'encrypted' });
      expect(await verdict(respelled)).toMatch(/^encrypted: /);
      await expect(checkPdf(respelled, 'documents[1]', 'produced')).rejects.toMatchObject({
        slug: 'document-conversion-failed',
        details: [
          {
            field: 'documents[1]',
            message: expect.stringMatching(/^the produced PDF encrypted: /),
          },
        ],
      });
    },
  );

  it('takes names spelled with escapes in either case as the names they are', async () => {
    const pdf = await classicPdf(2);
    // pdf-lib alone decodes only upper-case hex: /R#6fot was no /Root, and the file "damaged".
    const respelled = patch(
      patch(pdf, /\/Root(?=\s)/, () => '/R#6fot'),
      /\/Type\s*\/Pages\b/,
      () => '/Type /P#61g#65s',
    );
    expect(respelled.toString('latin1')).toContain('/R#6fot');
    expect(await verdict(respelled)).toBe('accepted');
    expect(await checkPdf(respelled, 'documents[0]')).toEqual({ pages: 2 });
  });
});

describe('an accepted PDF reads the same in every reader', () => {
  // pdf-lib writes page content as `N 0 obj << /Filter /FlateDecode /Length n >> stream`.
  const contentLength =
    /(\d+ 0 obj\s*<<\s*\/Filter \/FlateDecode\s*\/Length )(\d+)(\s*>>\s*stream)/g;

  it.each([
    ['huge', () => '99999999999'],
    ['negative', () => '-12'],
    ['past the end', (n: number) => String(n + 100_000)],
    ['inside the data', (n: number) => String(n - 5)],
    ['past endstream', (n: number) => String(n + 12)],
  ])('refuses a stream whose /Length is %s', async (_name, value) => {
    const pdf = await classicPdf(1);
    expect(await verdict(pdf)).toBe('accepted');
    let written = '';
    const mutant = patch(pdf, contentLength, (m) => {
      written = value(Number(m[2]));
      return `${m[1]}${written}${m[3]}`;
    });
    expect(await verdict(mutant)).toMatch(
      new RegExp(
        `^damaged: the stream of the object at offset \\d+ (says /Length ${written}|has no valid /Length \\(${written}\\))`,
      ),
    );
  });

  it('refuses a negative /Length that pointed pdf-lib back at an earlier endstream', async () => {
    // pdf-lib moved back, matched the endstream before, and parsed the same object for ever.
    const pdf = await classicPdf(2);
    const text = pdf.toString('latin1');
    const m = [...text.matchAll(contentLength)].at(-1)!;
    const dataStart = m.index + m[0].length + 1;
    const before = text.lastIndexOf('endstream', m.index);
    expect(before).toBeGreaterThan(0);
    const mutant = edit(pdf, m.index, m[0].length, `${m[1]}-${dataStart - before}${m[3]}`, true);
    // Before the fix this never ended (the test's own timeout ends it now).
    expect(await verdict(mutant)).toMatch(/has no valid \/Length \(-\d+\)/);
  });

  it('refuses an indirect /Length that is wrong', async () => {
    const pdf = await classicPdf(1);
    const m = new RegExp(contentLength.source).exec(pdf.toString('latin1'))!;
    const length = Number(m[2]);
    const largest = Number(/\/Size (\d+)/.exec(pdf.toString('latin1'))![1]);
    // The content's /Length becomes a reference to a new object holding a wrong number.
    let mutant = patch(pdf, contentLength, (x) => `${x[1]}${largest} 0 R${x[3]}`);
    const xref = mutant.toString('latin1').lastIndexOf('\nxref') + 1;
    const object = `${largest} 0 obj\n${length + 3}\nendobj\n`;
    mutant = edit(mutant, xref, 0, object, true);
    mutant = patch(mutant, /\/Size \d+/, () => `/Size ${largest + 1}`);
    mutant = patch(mutant, /(xref\s+0 )(\d+)/, (x) => `${x[1]}${largest + 1}`);
    const entry = `${String(xref).padStart(10, '0')} 00000 n \n`;
    mutant = patch(mutant, /trailer/, () => `${entry}trailer`);
    expect(await verdict(mutant)).toMatch(`says /Length ${length + 3}`);
    // The same construction with the right number is accepted: the refusal is the number's.
    const right = Buffer.from(
      mutant.toString('latin1').replace(`obj\n${length + 3}\n`, `obj\n${length}\n`),
      'latin1',
    );
    expect(await verdict(right)).toBe('accepted');
  });

  it('refuses cross-reference offsets that do not lead to the objects', async () => {
    const pdf = await classicPdf(1);
    const entry = /\n(\d{10}) 00000 n/.exec(
      pdf.toString('latin1').slice(pdf.toString('latin1').lastIndexOf('\nxref')),
    )!;
    const wrong = Buffer.from(
      pdf
        .toString('latin1')
        .replace(
          `${entry[1]} 00000 n`,
          `${String(Number(entry[1]) + 3).padStart(10, '0')} 00000 n`,
        ),
      'latin1',
    );
    expect(await verdict(wrong)).toMatch(
      /^damaged: its cross-reference entry for object \d+ 0 points at offset \d+/,
    );
    // "endobj\n\nxref": two bytes back is white-space, which readers skip; four is inside endobj.
    const blank = patch(pdf, /startxref\s+(\d+)/, (m) => `startxref\n${Number(m[1]) - 2}`);
    expect(await verdict(blank)).toBe('accepted');
    const nowhere = patch(pdf, /startxref\s+(\d+)/, (m) => `startxref\n${Number(m[1]) - 4}`);
    expect(await verdict(nowhere)).toMatch(/^damaged: startxref or \/Prev points at offset/);
  });

  /**
   * pdf-lib's own object-stream output, with the rows (W [1 2 2]) of its cross-reference stream
   * changed; that stream is the file's last object, so nothing else moves.
   */
  async function withXrefRows(change: (rows: Buffer[]) => void): Promise<Buffer> {
    const doc = await PDFDocument.create();
    doc.addPage();
    doc.addPage();
    const pdf = Buffer.from(await doc.save({ useObjectStreams: true }));
    const text = pdf.toString('latin1');
    const at = Number(/startxref\s+(\d+)/.exec(text.slice(-64))![1]);
    const m = /\/Length (\d+)[^]*?\/W \[ 1 2 2 \][^]*?stream\n/.exec(text.slice(at))!;
    const lengthAt = at + m.index + '/Length '.length;
    const dataAt = at + m.index + m[0].length;
    const data = inflateSync(pdf.subarray(dataAt, dataAt + Number(m[1])));
    const rows = Array.from({ length: data.length / 5 }, (_, i) => data.subarray(i * 5, i * 5 + 5));
    change(rows);
    const packed = deflateSync(Buffer.concat(rows));
    return Buffer.concat([
      pdf.subarray(0, lengthAt),
      Buffer.from(String(packed.length), 'latin1'),
      pdf.subarray(lengthAt + m[1]!.length, dataAt),
      packed,
      pdf.subarray(dataAt + Number(m[1])),
    ]);
  }

  it('refuses cross-reference stream entries that name the wrong place in an object stream', async () => {
    expect(await verdict(await withXrefRows(() => {}))).toBe('accepted');
    const swapped = await withXrefRows((rows) => {
      const compressed = rows.filter((row) => row[0] === 2);
      expect(compressed).toHaveLength(5);
      const [a, b] = [compressed[0]!, compressed[1]!];
      const index = a.readUInt16BE(3);
      a.writeUInt16BE(b.readUInt16BE(3), 3);
      b.writeUInt16BE(index, 3);
    });
    expect(await verdict(swapped)).toMatch(
      /^damaged: its cross-reference entry for object \d+ 0 names place \d+ in object stream \d+, which holds object \d+ there$/,
    );
    const elsewhere = await withXrefRows((rows) => {
      const row = rows.find((r) => r[0] === 2)!;
      // The last plain entry is the cross-reference stream itself: no object stream.
      const plain = rows.findLastIndex((r) => r[0] === 1);
      row.writeUInt16BE(plain, 1);
    });
    expect(await verdict(elsewhere)).toMatch(/names object stream \d+, which is none$/);
  });

  it('refuses a second definition of an object that readers never see (the table names the first)', async () => {
    const pdf = await classicPdf(1);
    const text = pdf.toString('latin1');
    const font = /\n(\d+ 0 obj\s*<<\s*\/Type \/Font[^]*?endobj)/.exec(text)!;
    const shadow = font[1]!.replace('/BaseFont /Helvetica', '/BaseFont /Courier');
    expect(shadow).not.toBe(font[1]);
    // Appended after the file: pdf-lib takes the last definition, readers the listed one.
    const mutant = Buffer.concat([pdf, Buffer.from(`\n${shadow}\n`, 'latin1')]);
    expect(await verdict(mutant)).toMatch(
      /^damaged: its cross-reference entry for object \d+ 0 points at offset \d+, but the object pdf-lib reads is at \d+/,
    );
  });

  it('refuses references that lead nowhere, and a trailer /Size below its objects', async () => {
    const dangling = await classicPdf(1, (doc) => {
      doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([PDFRef.of(999)]));
    });
    expect(await verdict(dangling)).toMatch(
      /^damaged: object \d+ 0 refers to 999 0 R, which its cross-reference table does not list/,
    );
    const small = patch(await classicPdf(1), /\/Size (\d+)/, () => '/Size 2');
    expect(await verdict(small)).toMatch(
      /^damaged: its trailer's \/Size \(2\) is not one past its highest object number/,
    );
  });

  it('refuses a trailer /Root that is not a catalog', async () => {
    const pdf = await classicPdf(1);
    const pages = /(\d+) 0 obj\s*<<\s*\/Type \/Pages/.exec(pdf.toString('latin1'))![1];
    const mutant = patch(pdf, /\/Root (\d+) 0 R/, () => `/Root ${pages} 0 R`);
    expect(await verdict(mutant)).toBe(
      `damaged: its trailer's /Root (${pages} 0 R) is not a catalog`,
    );
  });

  it('refuses page content that does not decode or sits under an image filter', async () => {
    const pdf = await classicPdf(1);
    const m = /\/Filter \/FlateDecode\s*\/Length (\d+)\s*>>\s*stream\n/.exec(
      pdf.toString('latin1'),
    );
    // pdf-lib writes its page content with FlateDecode: corrupt a byte in its middle.
    expect(m).not.toBeNull();
    const middle = m!.index + m![0].length + Math.floor(Number(m![1]) / 2);
    const corrupt = Buffer.from(pdf);
    corrupt[middle] = corrupt[middle]! ^ 0xff;
    expect(await verdict(corrupt)).toMatch(
      /^damaged: the content of page \d+ 0 R \(\d+ 0 R\) does not decode/,
    );
    const jbig2 = patch(
      pdf,
      /\/Filter \/FlateDecode(\s*\/Length \d+\s*>>\s*stream\n)/,
      (x) => `/Filter /JBIG2Decode${x[1]}`,
    );
    expect(await verdict(jbig2)).toMatch(
      /is under the filter \/JBIG2Decode, which page content cannot use$/,
    );
  });

  it('holds a linearized file to its linearization dictionary', async () => {
    const pdf = corpusPdf('file-type__fixture-fast-web.pdf');
    expect(await verdict(pdf)).toBe('accepted');
    // Same widths: the file keeps its length, so readers still take it for linearized.
    const pages = patch(pdf, /\/N 1\//, () => '/N 2/', false);
    expect(await verdict(pages)).toBe(
      'damaged: its linearization dictionary says /N 2 pages, but it has 1',
    );
    const t = patch(pdf, /\/T (\d+)/, (m) => `/T ${Number(m[1]) + 7}`, false);
    expect(await verdict(t)).toMatch(
      /^damaged: its linearization dictionary's \/T \(\d+\) does not lead to the entry for object \d+/,
    );
  });
});

describe('the page tree is walked without recursion', () => {
  /** The catalog's page tree root and its Kids. */
  function root(doc: PDFDocument): { ref: PDFRef; kids: PDFArray; node: PDFDict } {
    const ref = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
    const node = doc.context.lookup(ref, PDFDict);
    return { ref, node, kids: node.lookup(PDFName.of('Kids'), PDFArray) };
  }

  it('says a page tree whose node lists itself is cyclic, for input and produced PDFs', async () => {
    let rootRef = '';
    const pdf = await classicPdf(2, (doc) => {
      const r = root(doc);
      r.kids.push(r.ref);
      rootRef = `${r.ref.objectNumber} 0 R`;
    });
    const message = `page tree is cyclic: ${rootRef} is its own ancestor (a kid of ${rootRef})`;
    expect(await verdict(pdf)).toBe(`damaged: ${message}`);
    expect(await verdict(pdf, 'produced')).toBe(`the produced PDF damaged: ${message}`);
  });

  it('says a page tree whose node lists its parent is cyclic', async () => {
    const pdf = await classicPdf(2, (doc) => {
      const r = root(doc);
      const child = doc.context.register(
        doc.context.obj({ Type: 'Pages', Parent: r.ref, Kids: [r.ref], Count: 0 }),
      );
      r.kids.push(child);
    });
    expect(await verdict(pdf)).toMatch(
      /^damaged: page tree is cyclic: \d+ 0 R is its own ancestor \(a kid of \d+ 0 R\)$/,
    );
  });

  it('refuses a page listed twice, a /Count that disagrees, and a kid that is no page', async () => {
    const twice = await classicPdf(2, (doc) => {
      const r = root(doc);
      r.kids.push(r.kids.get(0));
      r.node.set(PDFName.of('Count'), doc.context.obj(3));
    });
    expect(await verdict(twice)).toMatch(
      /^damaged: page tree holds \d+ 0 R twice \(again under \d+ 0 R\)$/,
    );
    const count = await classicPdf(2, (doc) =>
      root(doc).node.set(PDFName.of('Count'), doc.context.obj(5)),
    );
    expect(await verdict(count)).toMatch(
      /^damaged: page tree node \d+ 0 R says \/Count 5 but holds 2 page\(s\)$/,
    );
    const notAPage = await classicPdf(1, (doc) => {
      root(doc).kids.push(doc.context.register(doc.context.obj({ Type: 'Font' })));
      root(doc).node.set(PDFName.of('Count'), doc.context.obj(2));
    });
    expect(await verdict(notAPage)).toMatch(
      /has a kid \(\d+ 0 R\) that is neither a page nor a page tree node$/,
    );
  });

  /** One page under `levels` page tree nodes, each the only kid of the one above. */
  async function deepTree(levels: number): Promise<Buffer> {
    return classicPdf(1, (doc) => {
      const r = root(doc);
      const page = r.kids.get(0) as PDFRef;
      let top = page;
      for (let i = 1; i < levels; i++)
        top = doc.context.register(doc.context.obj({ Type: 'Pages', Kids: [top], Count: 1 }));
      r.kids.set(0, top);
    });
  }

  it(`accepts ${MAX_PAGE_TREE_DEPTH} levels and refuses one more`, async () => {
    expect(await verdict(await deepTree(MAX_PAGE_TREE_DEPTH))).toBe('accepted');
    expect(await verdict(await deepTree(MAX_PAGE_TREE_DEPTH + 1))).toBe(
      `damaged: page tree is deeper than ${MAX_PAGE_TREE_DEPTH} levels`,
    );
    // Far deeper than any stack: still a typed answer, not "Maximum call stack size exceeded".
    expect(await verdict(await deepTree(20_000))).toBe(
      `damaged: page tree is deeper than ${MAX_PAGE_TREE_DEPTH} levels`,
    );
  });
});
