import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeAtomically } from '../../base/files/index.js';
import { objectLocation, type Storage } from '../../render/storage/index.js';
import type { BatchItem } from './batch-item.js';
import type { BatchReport } from './report.js';

/**
 * Copies each PDF into the output folder under its document's name (a library id, or a file's
 * path inside the source without its extension); names that meet get -2, -3, ... A name never
 * leaves the folder: `..` and leading slashes are dropped. Each copied document's `out` is set.
 */
export async function copyBatchOut(
  report: BatchReport,
  items: BatchItem[],
  storage: Storage,
  outDir: string,
): Promise<void> {
  const taken = new Set<string>();
  for (const [i, doc] of report.documents.entries()) {
    if (!doc.key) continue;
    const safe = items[i]!.outName.split(/[\\/]+/)
      .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
      .join('/');
    const base = safe || 'document';
    let name = `${base}.pdf`;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}.pdf`;
    taken.add(name);
    const out = join(outDir, name);
    const pdf = await storage.get(doc.key);
    if (!pdf) throw new Error(`the stored PDF ${objectLocation(storage, doc.key)} is gone`);
    await mkdir(dirname(out), { recursive: true });
    await writeAtomically(out, pdf);
    doc.out = out;
  }
}
