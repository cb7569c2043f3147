import type { FailureDetail } from '../../base/errors/index.js';
import { parseDelimiters, type Delimiters } from '../../document/fill/index.js';
import type { ResolvedTemplate } from '../../document/library/index.js';
import type { TagInput } from '../../document/values/index.js';
import type { JobRenderOptions } from './job-contract.js';

/**
 * Render options as a caller gives them: the job contract's, with delimiters also written as the
 * CLI's `--delimiters` and document.json write them (`"{{ }}"`).
 */
export type DocumentRenderOptions = Omit<JobRenderOptions, 'delimiters'> & {
  delimiters?: Delimiters | string;
};

/** A document as an API server has it (spec 2.2): a name and exactly one source. */
export interface DocumentInput {
  name: string;
  /** Bytes of a PDF or a real .docx. */
  content?: Uint8Array;
  /** Kept by reference, not inspected. */
  url?: string;
  /**
   * A document docpipe already stores (an upload, or a render), by its storage key: the worker
   * reads it from storage, so its bytes are neither sent through Redis nor stored again.
   */
  storageKey?: string;
  /** A library document, with its version. */
  documentId?: string;
  versionId?: string;
  /**
   * A template with its settings, as `resolveTemplate` finds it from a path or a library id:
   * sent with its document.json's delimiters, locale, time zone and declared fields, so that the
   * worker fills it as `docpipe render` does. A library document goes by reference.
   */
  template?: ResolvedTemplate;
  tags?: TagInput[];
  /** Over the template's own settings. */
  options?: DocumentRenderOptions;
}

/** A document's source and options as the job contract carries them. */
export interface ContractInput {
  content?: Uint8Array;
  url?: string;
  storageKey?: string;
  documentId?: string;
  versionId?: string;
  options?: JobRenderOptions;
}

/**
 * The input in the contract's terms: a resolved template becomes its bytes (or its library
 * reference) with its settings beneath the caller's options, and `"{{ }}"` delimiters become
 * `{start, end}`. Problems are added to `problems` under `field`.
 */
export function contractInput(
  doc: DocumentInput,
  field: string,
  problems: FailureDetail[],
): ContractInput {
  const { template } = doc;
  const out: ContractInput = template
    ? template.documentId !== undefined
      ? { documentId: template.documentId, versionId: template.versionId }
      : { content: template.bytes }
    : {
        content: doc.content,
        url: doc.url,
        storageKey: doc.storageKey,
        documentId: doc.documentId,
        versionId: doc.versionId,
      };
  // A library document by reference is filled by the worker's library with its own settings.
  const settings = template && template.documentId === undefined ? template.settings : {};
  const { delimiters, ...given } = doc.options ?? {};
  const options: JobRenderOptions = { ...settings, ...given };
  if (typeof delimiters === 'string') {
    const parsed = parseDelimiters(delimiters);
    if (parsed) options.delimiters = parsed;
    else
      problems.push({
        field: `${field}.options.delimiters`,
        message: 'must be start and end separated by a space, such as "{{ }}", or {start, end}',
      });
  } else if (delimiters !== undefined) options.delimiters = delimiters;
  if (Object.keys(options).length > 0) out.options = options;
  return out;
}
