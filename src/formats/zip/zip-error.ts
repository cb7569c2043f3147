/** Why an archive was refused. These map one to one onto sniff's unsupported reasons. */
export type ZipProblem = 'damaged' | 'encrypted' | 'too-large';

/** Thrown by the zip reader; sniff turns it into an unsupported result. */
export class ZipError extends Error {
  override readonly name = 'ZipError';
  constructor(
    readonly problem: ZipProblem,
    message: string,
  ) {
    super(message);
  }
}
