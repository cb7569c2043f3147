import { DocpipeError } from '../../base/errors/index.js';
import { resolveTemplate, type DocumentLibrary } from '../../document/library/index.js';
import type { Renderer, RenderOptions } from '../../render/pipeline/index.js';
import { checkKey, type Storage } from '../../render/storage/index.js';
import {
  jobDataProblems,
  type ContractLimits,
  type DocumentJobData,
  type DocumentJobResult,
} from './job-contract.js';

export interface ProcessorDeps {
  renderer: Renderer;
  storage: Storage;
  library: DocumentLibrary;
  contract: ContractLimits;
}

/**
 * One document job, from its data to its result: checks the contract, loads the source, renders.
 * Knows the job contract, not BullMQ. Throws DocpipeError for every failure it can name.
 */
export async function processDocumentJob(
  data: unknown,
  deps: ProcessorDeps,
  /** The job's place in the fair schedule (its priority), for the office pool's waiting line. */
  place?: number,
): Promise<DocumentJobResult> {
  const problems = jobDataProblems(data, deps.contract);
  if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
  const job = data as DocumentJobData;
  const { field, source } = job;
  // A URL source is stored by reference and not inspected (spec 2.2).
  if ('url' in source) return { field, kind: 'url', url: source.url };

  let bytes: Uint8Array;
  let options: RenderOptions = { ...job.options, field };
  if ('inline' in source) {
    bytes = Buffer.from(source.inline, 'base64');
  } else if ('storageKey' in source) {
    let key: string;
    try {
      key = checkKey(source.storageKey);
    } catch {
      throw new DocpipeError('validation-failed', [
        { field: `${field}.source.storageKey`, message: 'not a storage key' },
      ]);
    }
    // Storage errors (EIO, EMFILE) propagate as internal, so the job is retried.
    const stored = await deps.storage.get(key);
    if (!stored)
      throw new DocpipeError('validation-failed', [
        { field: `${field}.source.storageKey`, message: 'no stored document with this key' },
      ]);
    bytes = stored;
  } else {
    const template = await resolveTemplate(source, { library: deps.library, field }).catch(
      (err: unknown) => {
        // The library names its own fields; here they sit under the document's path.
        if (err instanceof DocpipeError && err.slug === 'document-not-found') {
          throw new DocpipeError('document-not-found', [
            { field: `${field}.documentId`, message: err.details[0]?.message ?? 'not found' },
          ]);
        }
        throw err;
      },
    );
    bytes = template.bytes;
    // A library document's values must match the fields it defines (spec 4.4, rule 2): strict,
    // and by its own declarations, whatever the job says of fields.
    options = { ...template.settings, ...job.options, field, strict: true };
    if (template.settings.fields) options.fields = template.settings.fields;
  }
  const result = await deps.renderer.render(
    { bytes, name: job.name, place },
    job.tags ?? [],
    options,
  );
  return { field, kind: 'rendered', result };
}
