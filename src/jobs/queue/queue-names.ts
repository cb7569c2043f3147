/** Queues of one docpipe installation; a prefix keeps installations on one Redis apart. */
export interface QueueNames {
  /** One job a document. */
  documents: string;
  /** One parent job a document set: documents rendered together, answered once. */
  documentSets: string;
  /**
   * Where versions before the rename put document sets (`cases`). Workers take what is still
   * waiting there until it is drained; nothing adds to it any more.
   */
  legacyDocumentSets: string;
  prefix: string;
}

/** The prefix of an installation that names none. */
export const DEFAULT_PREFIX = 'docpipe';

export function queueNames(prefix = DEFAULT_PREFIX): QueueNames {
  return {
    documents: 'documents',
    documentSets: 'document-sets',
    legacyDocumentSets: 'cases',
    prefix,
  };
}
