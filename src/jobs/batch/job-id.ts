import { createHash } from 'node:crypto';
import { canonicalJson } from '../../render/pipeline/index.js';
import type { DocumentInput } from '../queue/index.js';

/**
 * The same document, values and options give the same job id: a rerun resumes, it does not
 * duplicate. `bytes` is the template's content for a library document sent by reference, so an
 * edited template is rendered again rather than answered with the last run's job.
 */
export function batchJobId(document: DocumentInput, bytes = document.content): string {
  const { content: _content, ...rest } = document;
  const hash = createHash('sha256').update(canonicalJson(rest));
  if (bytes) hash.update(bytes);
  return `rerender-${hash.digest('hex').slice(0, 40)}`;
}
