import { basename, extname, relative } from 'node:path';
import type { Failure } from '../../base/errors/index.js';
import type { TagInput } from '../../document/values/index.js';
import { InputError, readInput, TooLargeInput } from '../../base/files/index.js';
import type { DocumentInput } from '../queue/index.js';
import type { BatchItem } from './batch-item.js';
import { batchJobId } from './job-id.js';

/** A file to render, or a failed line when it is missing or past the size limit. */
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
  let content: Buffer | TooLargeInput | undefined;
  try {
    content = await readInput(file, maxInputBytes);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    const failure: Failure = {
      error: 'validation-failed',
      details: [{ field: 'file', message: err.message }],
    };
    return { label: shown, outName, document: { name, tags }, jobId: '', failure };
  }
  if (content instanceof TooLargeInput) {
    const failure = content.toError('documents[0]').toFailure();
    return { label: shown, outName, document: { name, tags }, jobId: '', failure };
  }
  const document: DocumentInput = { name, content, tags };
  return { label: shown, outName, document, jobId: batchJobId(document) };
}

export function withoutExtension(path: string): string {
  const ext = extname(path);
  return ext ? path.slice(0, -ext.length) : path;
}
