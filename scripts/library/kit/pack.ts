import { Packer, type Document } from 'docx';
import { writeZip, ZipArchive } from '../../../src/formats/zip/index.js';

/**
 * The fixed creation and modification time of every library document. docx stamps core.xml with
 * the time it runs, which would make each build differ from the committed files.
 */
export const LIBRARY_TIME = '2025-01-01T00:00:00Z';

/** Parts a reader looks for first; the rest keep the order docx writes them in. */
const FIRST = ['[Content_Types].xml', '_rels/.rels'];

/**
 * The document's bytes, the same on every run: core.xml's times fixed, parts in a fixed order,
 * zip entries with fixed timestamps (docpipe's own zip writer).
 */
export async function packDocument(document: Document): Promise<Buffer> {
  const zip = ZipArchive.open(await Packer.toBuffer(document));
  const names = zip.entries.map((e) => e.name);
  const ordered = [
    ...FIRST.filter((n) => names.includes(n)),
    ...names.filter((n) => !FIRST.includes(n)),
  ];
  return writeZip(
    ordered.map((name) => ({
      name,
      data: name === 'docProps/core.xml' ? fixedTimes(zip.read(name)) : zip.read(name),
    })),
  );
}

function fixedTimes(core: Buffer): Buffer {
  let replaced = 0;
  const xml = core
    .toString('utf8')
    .replace(
      /(<dcterms:(created|modified)\b[^>]*>)[^<]*(<\/dcterms:\2>)/g,
      (_m, open: string, _n, close: string) => {
        replaced++;
        return `${open}${LIBRARY_TIME}${close}`;
      },
    );
  // A docx release that writes the times otherwise must fail here, not make builds differ.
  if (replaced !== 2)
    throw new Error(`core.xml: expected created and modified times, found ${replaced}`);
  return Buffer.from(xml, 'utf8');
}
