import type { Storage } from '../../render/storage/index.js';
import { parseStorageKey, renderMarkerKey, renderPlacesKey } from '../../render/storage/index.js';

/**
 * Where a case keeps its PDFs: `cases/<company as UTF-8 hex>/<case id>/<index>.pdf`. A case's
 * own copy, outside the folders retention sweeps (renders are a cache and age out; a case's
 * documents live as long as the case), and removable with the case without touching a render
 * another request was given. The company is hex-encoded as in upload keys: keys are lower case.
 */
export function caseDocumentKey(company: string, caseId: string, index: number): string {
  return `${caseFolder(company, caseId)}${index}.pdf`;
}

/** Whether a storage key is one of a case's documents (caseDocumentKey's, sealed ones included). */
export function isCaseDocumentKey(key: string): boolean {
  return key.startsWith('cases/');
}

/** The folder of a case's documents (ends with `/`). */
export function caseFolder(company: string, caseId: string): string {
  return `${companyCaseFolder(company)}${caseId.toLowerCase()}/`;
}

/** The folder of every case of a company (ends with `/`): a key under it is the company's. */
export function companyCaseFolder(company: string): string {
  return `cases/${Buffer.from(company, 'utf8').toString('hex')}/`;
}

/**
 * Removes a render this request made (not taken from the cache), with its sidecar of places,
 * unless another request has relied on it since (its marker), as the renderer's own `discard`
 * does for a failed set. The PDF first: a render is there when its PDF is.
 */
export async function discardRender(storage: Storage, key: string): Promise<void> {
  const parsed = parseStorageKey(key);
  if (parsed?.kind !== 'render') return;
  if (await storage.stat(renderMarkerKey(parsed.hash))) return;
  await storage.delete(key);
  await storage.delete(renderPlacesKey(parsed.hash));
}
