import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { TagInput } from '../../document/values/index.js';
import { InputError, parseJson } from '../../base/files/index.js';
import type { DocumentInput } from '../queue/index.js';
import type { BatchItem } from './batch-item.js';
import { fileItem, withoutExtension } from './file-item.js';
import { batchJobId } from './job-id.js';

const MANIFEST_MEMBERS = new Set(['documentId', 'versionId', 'file', 'name', 'tags']);

interface ManifestEntry {
  documentId?: string;
  versionId?: string;
  file?: string;
  name?: string;
  tags?: TagInput[];
}

/** Every problem of one manifest line; none means the entry is sound. */
function entryProblems(entry: unknown): string[] {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return ['is not a JSON object'];
  const e = entry as Record<string, unknown>;
  const problems = Object.keys(e)
    .filter((k) => !MANIFEST_MEMBERS.has(k))
    .map((k) => `unknown member "${k}" (known: ${[...MANIFEST_MEMBERS].join(', ')})`);
  for (const key of ['documentId', 'versionId', 'file', 'name'])
    if (key in e && typeof e[key] !== 'string') problems.push(`"${key}" must be a string`);
  if ('tags' in e && !Array.isArray(e.tags)) problems.push('"tags" must be an array');
  if ('documentId' in e === 'file' in e) problems.push('needs "documentId" or "file", not both');
  if ('versionId' in e && !('documentId' in e)) problems.push('"versionId" needs "documentId"');
  return problems;
}

/** Most manifest problems listed before the rest are counted: enough to fix, not a flood. */
const MAX_LISTED_PROBLEMS = 20;

/** Every line parsed and checked; any problem refuses the whole manifest, listing them all. */
async function readEntries(file: string): Promise<ManifestEntry[]> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const entries: ManifestEntry[] = [];
  const problems: string[] = [];
  for (const [n, text] of lines.entries()) {
    if (text.trim() === '') continue;
    const where = `${file}:${n + 1}`;
    let entry: unknown;
    try {
      entry = parseJson(text, where);
    } catch (err) {
      problems.push((err as Error).message);
      continue;
    }
    problems.push(...entryProblems(entry).map((p) => `${where}: ${p}`));
    entries.push(entry as ManifestEntry);
  }
  if (problems.length > 0) {
    const more = problems.length - MAX_LISTED_PROBLEMS;
    throw new InputError(
      `${file} has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was sent:\n  ` +
        problems.slice(0, MAX_LISTED_PROBLEMS).join('\n  ') +
        (more > 0 ? `\n  ...and ${more} more` : ''),
    );
  }
  return entries;
}

/**
 * A manifest.jsonl: one `{documentId, versionId, name, tags}` (a library document) or
 * `{file, name, tags}` a line. `tags` is every line's values unless the line has its own.
 */
export async function fromManifest(
  file: string,
  tags: TagInput[] | undefined,
  maxInputBytes: number,
): Promise<BatchItem[]> {
  const items: BatchItem[] = [];
  for (const entry of await readEntries(file)) {
    const values = entry.tags ?? tags;
    if (entry.documentId !== undefined) {
      const document: DocumentInput = {
        name: entry.name ?? entry.documentId,
        documentId: entry.documentId,
        versionId: entry.versionId,
        tags: values,
      };
      items.push({
        label: entry.documentId,
        outName: entry.documentId,
        document,
        jobId: batchJobId(document),
      });
      continue;
    }
    // Relative paths are relative to the manifest, so a manifest and its files move together.
    const path = resolve(dirname(file), entry.file!);
    const item = await fileItem(
      path,
      entry.file!,
      withoutExtension(entry.file!),
      values,
      maxInputBytes,
    );
    if (entry.name !== undefined) item.document.name = entry.name;
    if (!item.failure) item.jobId = batchJobId(item.document);
    items.push({ ...item, label: entry.file! });
  }
  return items;
}
