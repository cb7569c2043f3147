/** Queues of one docpipe installation; a prefix keeps installations on one Redis apart. */
export interface QueueNames {
  documents: string;
  cases: string;
  prefix: string;
}

/** The prefix of an installation that names none. */
export const DEFAULT_PREFIX = 'docpipe';

export function queueNames(prefix = DEFAULT_PREFIX): QueueNames {
  return { documents: 'documents', cases: 'cases', prefix };
}
