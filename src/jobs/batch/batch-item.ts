import type { Failure } from '../../base/errors/index.js';
import type { DocumentInput } from '../queue/index.js';

/** One document of a batch, as the report names it and the queue receives it. */
export interface BatchItem {
  /** How the report names it: a library id or a path. */
  label: string;
  /** Where its PDF goes in an output folder, relative to that folder, without the extension. */
  outName: string;
  document: DocumentInput;
  jobId: string;
  /** Refused before it reached the queue (a missing file, one past the size limit). */
  failure?: Failure;
}

/** What a batch reads its documents with: the configured library and the input size limit. */
export interface BatchSourceOptions {
  /** The configured library folder: its documents are rendered by reference. */
  templatesDir: string;
  /** Files past this are failed lines of the report, not read whole. */
  maxInputBytes: number;
}
