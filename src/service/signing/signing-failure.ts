import type { FailureDetail } from '../../base/errors/index.js';

/**
 * Why a signing action was refused. The signing page's API answers these (its own codes: the
 * spec's slugs are the case API's), so they are not DocpipeErrors:
 * - `link-not-found`: no open case has a pending recipient with this token. A wrong token, one
 *   already used to sign, and one of a denied or expired case all end here, alike, so that an
 *   answer tells a guesser nothing about which it was.
 * - `not-your-turn`: an earlier group has not finished; `waitingFor` names who it waits for.
 * - `invalid`: the request itself (the image, the name, the reason), with details per field.
 * - `identity-mismatch`: the eID login is someone else than the case asked for (CPR number).
 * - `not-signing`: the recipient receives a copy and has nothing to sign.
 */
export type SigningFailureKind =
  'link-not-found' | 'not-your-turn' | 'invalid' | 'identity-mismatch' | 'not-signing';

export class SigningFailure extends Error {
  readonly kind: SigningFailureKind;
  readonly details: FailureDetail[];
  readonly waitingFor: string[];

  constructor(
    kind: SigningFailureKind,
    message: string,
    options: { details?: FailureDetail[]; waitingFor?: string[] } = {},
  ) {
    super(message);
    this.name = 'SigningFailure';
    this.kind = kind;
    this.details = options.details ?? [];
    this.waitingFor = options.waitingFor ?? [];
  }
}

/** The one answer for every token that opens nothing (see SigningFailureKind). */
export function linkNotFound(): SigningFailure {
  return new SigningFailure(
    'link-not-found',
    'This signing link does not open anything: it may be mistyped, already used, or its case may be closed.',
  );
}
