/**
 * Why a PKCS#12 file cannot seal. A configuration problem found at start, not a request's failure:
 * the configuration loader turns it into a ConfigError naming the variable to fix, so it has no
 * slug of the spec's.
 */
export type SealerProblem =
  /** Not a PKCS#12 file, or one in a form the reader does not know. */
  | 'unreadable'
  /** The password does not open it (its integrity check fails). */
  | 'wrong-password'
  /** It holds no private key. */
  | 'no-key'
  /** It holds no certificate, or none whose public key matches the private key. */
  | 'no-certificate'
  /** The certificate's validity ended. */
  | 'expired'
  /** The certificate's validity has not begun. */
  | 'not-yet-valid';

export class SealerError extends Error {
  override readonly name = 'SealerError';
  constructor(
    readonly problem: SealerProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Whether `err` is a SealerError, also one whose class was lost crossing a thread. */
export function isSealerError(err: unknown): err is SealerError {
  return (
    err instanceof SealerError ||
    (err instanceof Error && err.name === 'SealerError' && 'problem' in err)
  );
}
