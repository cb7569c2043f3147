/** Queues of one docpipe installation; a prefix keeps installations on one Redis apart. */
export interface QueueNames {
  documents: string;
  cases: string;
  prefix: string;
}

export function queueNames(prefix = 'docpipe'): QueueNames {
  return { documents: 'documents', cases: 'cases', prefix };
}
