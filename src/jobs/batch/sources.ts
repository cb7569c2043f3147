import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { findTemplateFolders, type TemplateFolder } from '../../authoring/check/index.js';
import type { TagInput } from '../../document/values/index.js';
import { InputError, readJson } from '../../base/files/index.js';
import {
  FolderLibrary,
  resolveTemplate,
  type ResolvedTemplate,
} from '../../document/library/index.js';
import type { DocumentInput } from '../queue/index.js';
import type { BatchItem, BatchSourceOptions } from './batch-item.js';
import { fileItem, refusal, withoutExtension } from './file-item.js';
import { batchJobId } from './job-id.js';
import { fromManifest } from './manifest.js';

/**
 * The documents of a batch: a library folder (the configured one by reference, another by
 * content), any folder of .docx and PDF files, or a manifest.jsonl. `tags` are the values for
 * every document; without them a library document takes its first fixture's.
 */
export async function collectBatch(
  source: string,
  options: BatchSourceOptions,
  tags: TagInput[] | undefined,
): Promise<BatchItem[]> {
  const path = resolve(source);
  if (!existsSync(path)) throw new InputError(`${source} does not exist`);
  if ((await stat(path)).isFile()) return fromManifest(path, tags, options.maxInputBytes);
  const library = await findTemplateFolders(path).catch(() => []);
  if (library.length > 0) {
    const configured = path === resolve(options.templatesDir) ? new FolderLibrary(path) : undefined;
    const items: BatchItem[] = [];
    for (const folder of library)
      items.push(await libraryItem(folder, tags, configured, options.maxInputBytes));
    return items;
  }
  const files = (await walk(path)).filter((f) => !/\.(md|tsv)$/i.test(f));
  const items: BatchItem[] = [];
  // One at a time: a folder of large files never holds more than it must at once in reads.
  for (const file of files)
    items.push(
      await fileItem(
        file,
        file,
        withoutExtension(relative(path, file)),
        tags,
        options.maxInputBytes,
      ),
    );
  return items;
}

async function libraryItem(
  folder: TemplateFolder,
  tags: TagInput[] | undefined,
  configured: FolderLibrary | undefined,
  maxBytes: number,
): Promise<BatchItem> {
  const values =
    tags ??
    (folder.fixtures[0] ? ((await readJson(folder.fixtures[0].tags)) as TagInput[]) : undefined);
  // The configured library is rendered by reference, at its current version; the job id also
  // covers the template's bytes, so that an edited template is rendered again, not answered
  // with the last run's job. Another folder's templates go by content, with the settings their
  // document.json gives them, as the library would fill them.
  let template: ResolvedTemplate;
  try {
    template = await resolveTemplate(
      configured ? { documentId: folder.id } : { path: folder.dir },
      { library: configured, maxBytes, field: 'documents[0]' },
    );
  } catch (err) {
    const failure = refusal(err);
    return {
      label: folder.id,
      outName: folder.id,
      document: { name: folder.name },
      jobId: '',
      failure,
    };
  }
  if (template.documentId !== undefined) {
    const document: DocumentInput = {
      name: folder.name,
      documentId: template.documentId,
      versionId: template.versionId,
      tags: values,
    };
    return {
      label: folder.id,
      outName: folder.id,
      document,
      jobId: batchJobId(document, template.bytes),
    };
  }
  // A library folder's documents are templates: strict, as the configured library's are.
  const document: DocumentInput = {
    name: folder.name,
    content: template.bytes,
    tags: values,
    options: { ...template.settings, strict: true },
  };
  return { label: folder.id, outName: folder.id, document, jobId: batchJobId(document) };
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}
