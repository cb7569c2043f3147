import { DocpipeError } from '../../base/errors/index.js';

/** Why an archive or one of its entries was refused. These map one to one onto sniff's reasons. */
export type ZipProblem = 'damaged' | 'encrypted' | 'too-large';

/**
 * An archive that cannot be read. Typed (`unsupported-file-type`, never retried), so that a
 * document whose bytes are broken fails as such whichever reader meets the break first; sniff
 * turns it into an unsupported result with `problem` as its reason and `why` as its message.
 */
export class ZipError extends DocpipeError {
  constructor(
    readonly problem: ZipProblem,
    /** What is wrong, in words, without the reason: `central directory entry 3 is truncated`. */
    readonly why: string,
    field = '',
  ) {
    super('unsupported-file-type', [{ field, message: `${problem}: ${why}` }]);
  }

  /** The same failure, located at the document it belongs to (`documents[1]`). */
  at(field: string): ZipError {
    return new ZipError(this.problem, this.why, field);
  }
}

/**
 * A part of a package (a zip entry) that cannot be read: compressed data that does not inflate,
 * a size or CRC that does not match, a part that is missing, or XML that does not decode (a
 * character reference that names no character). The one error every reader of package parts
 * meets, whichever part it reads and whenever, so a damaged part is a damaged document: the
 * failure names the part, and is permanent.
 */
export class DamagedPartError extends ZipError {
  constructor(
    /**
     * The part's zip entry name: `word/embeddings/Microsoft_Excel_Worksheet.xlsx`; undefined only
     * where the reader no longer knew which part the text came from.
     */
    readonly part: string | undefined,
    /** What is wrong with it: `fails its CRC check`. */
    readonly fault: string,
    problem: ZipProblem = 'damaged',
    field = '',
  ) {
    super(problem, `${part === undefined ? 'a part' : `part ${part}`} ${fault}`, field);
  }

  override at(field: string): DamagedPartError {
    return new DamagedPartError(this.part, this.fault, this.problem, field);
  }
}

/**
 * A typed failure located at a document: a zip or part failure raised where nothing knew which
 * document it was reading gets the document's field; any other error is returned as it is.
 */
export function locatedAt(err: unknown, field: string): unknown {
  if (err instanceof ZipError && err.details.every((d) => d.field === '')) return err.at(field);
  return err;
}
