import { DocpipeError } from '../../base/errors/index.js';
import type { Storage } from '../../render/storage/index.js';
import { formsFolder, type StoredFormDocument } from '../forms/index.js';

/**
 * Where a flow keeps its own copies of its form's templates:
 * `webflows/<company as UTF-8 hex>/<flow id>/` (ends with `/`). A re-import of the form removes
 * the templates it replaced (import-form.ts), so a flow that pointed at the form's keys would
 * lose its case's documents; its own copies live as long as the flow. Outside the folders
 * retention sweeps, as forms/ and cases/ are. Lower case, as storage keys are.
 */
export function flowTemplatesFolder(company: string, flowId: string): string {
  return `webflows/${Buffer.from(company, 'utf8').toString('hex')}/${flowId.toLowerCase()}/`;
}

/**
 * Each document's template copied under `flowKeyPrefix` (flowTemplatesFolder's), as
 * `<index>.<kind>`; the documents answered with the new keys, the rest of each as it was. Only
 * the company's own form templates are copied: a key outside its forms folder is a bug, not a
 * document to take. Each is copied inside the store (Storage.copy: its bytes need not come to
 * docpipe). A template gone from storage, or a copy that fails, removes what this call wrote and
 * throws: the flow must not be made without them.
 */
export async function copyFlowTemplates(
  storage: Storage,
  company: string,
  flowKeyPrefix: string,
  documents: readonly StoredFormDocument[],
): Promise<StoredFormDocument[]> {
  if (!flowKeyPrefix.endsWith('/'))
    throw new Error(`a flow's template folder ends with "/": ${JSON.stringify(flowKeyPrefix)}`);
  const own = formsFolder(company);
  const written: string[] = [];
  try {
    const copied: StoredFormDocument[] = [];
    for (const [i, d] of documents.entries()) {
      if (!d.storageKey.startsWith(own))
        throw new Error(
          `document ${d.name} (${d.storageKey}) is no template of ${company}'s forms`,
        );
      const key = `${flowKeyPrefix}${i}.${d.kind}`;
      written.push(key);
      // The form's own record says it has this template and storage does not: the caller
      // can mend it (a new import), so a typed refusal rather than an internal error.
      if (!(await storage.copy(d.storageKey, key)))
        throw new DocpipeError('document-production-failed', [
          {
            field: 'formId',
            message: `the form's template of document ${JSON.stringify(d.name)} is gone from storage: import the form again (docpipe forms import)`,
          },
        ]);
      copied.push({ ...d, storageKey: key });
    }
    return copied;
  } catch (err) {
    await removeFlowTemplates(storage, written);
    throw err;
  }
}

/**
 * Removes a flow's template copies (their keys), for a creation whose transaction failed after
 * copyFlowTemplates. Best effort: a copy left behind only costs space, and must not hide the
 * failure that is being reported.
 */
export async function removeFlowTemplates(
  storage: Storage,
  keys: readonly string[],
): Promise<void> {
  await Promise.all(keys.map((k) => storage.delete(k).catch(() => undefined)));
}
