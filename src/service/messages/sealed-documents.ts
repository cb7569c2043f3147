import type { OutgoingMessage } from './message.js';

/**
 * Which documents of a signed case are sealed: `all`, `some` (the others were given by another
 * host's link and signed by reference to it), `none`. A signed copy says a seal only of what
 * was sealed.
 */
export type SealedDocuments = 'all' | 'some' | 'none';

export function sealedDocuments(m: Pick<OutgoingMessage, 'documents'>): SealedDocuments {
  const documents = m.documents ?? [];
  const byReference = documents.filter((d) => d.byReference).length;
  if (byReference === 0) return 'all';
  return byReference === documents.length ? 'none' : 'some';
}
