import { basename, extname, relative } from 'node:path';
import { isDocpipeError, type Failure } from '../../base/errors/index.js';
import type { TagInput } from '../../document/values/index.js';
import { InputError } from '../../base/files/index.js';
import {
  DocumentJsonError,
  resolveTemplate,
  type ResolvedTemplate,
} from '../../document/library/index.js';
import type { DocumentInput } from '../queue/index.js';
import type { BatchItem } from './batch-item.js';
import { batchJobId } from './job-id.js';

/**
 * A file to render, with the settings its folder's document.json gives it (delimiters, locale,
 * time zone, declared fields), as `docpipe render` fills it; or a failed line when it is
 * missing, past the size limit, or its document.json is broken.
 */
export async function fileItem(
  file: string,
  label: string,
  outName: string,
  tags: TagInput[] | undefined,
  maxInputBytes: number,
): Promise<BatchItem> {
  const name = basename(file);
  // Short when under the working folder, absolute when not (no ../../ chains).
  const fromHere = relative(process.cwd(), label);
  const shown = fromHere && !fromHere.startsWith('..') ? fromHere : label;
  let template: ResolvedTemplate;
  try {
    template = await resolveTemplate(
      { path: file },
      { maxBytes: maxInputBytes, field: 'documents[0]' },
    );
  } catch (err) {
    const failure = refusal(err);
    return { label: shown, outName, document: { name, tags }, jobId: '', failure };
  }
  const document: DocumentInput = { name, content: template.bytes, tags };
  if (Object.keys(template.settings).length > 0) document.options = { ...template.settings };
  return { label: shown, outName, document, jobId: batchJobId(document) };
}

/** Why a file was refused before the queue, as the report's failed line says it. */
export function refusal(err: unknown): Failure {
  if (err instanceof InputError)
    return { error: 'validation-failed', details: [{ field: 'file', message: err.message }] };
  // The template's own settings are wrong: no render of it can be right.
  if (err instanceof DocumentJsonError)
    return {
      error: 'document-production-failed',
      details: [{ field: 'document.json', message: err.message }],
    };
  if (isDocpipeError(err)) return err.toFailure();
  throw err;
}

export function withoutExtension(path: string): string {
  const ext = extname(path);
  return ext ? path.slice(0, -ext.length) : path;
}
