/**
 * A case or form submit names a recipient who signs with her CPR number, and this service holds no key to
 * store it encrypted with (no DOCPIPE_CPR_KEY, and no `docpipe start` key file in the data
 * folder). Not the caller's fault, and no slug of the spec fits, so it is a class of its own,
 * as outages are: the surface answers it as the service's problem (503), and nothing is
 * created. A CPR number is never stored in plain text instead.
 */
export class CprKeyMissingError extends Error {
  override readonly name = 'CprKeyMissingError';

  constructor() {
    super(
      'this service has no key to store CPR numbers with (DOCPIPE_CPR_KEY), so a CPR number cannot be taken; the operator must set DOCPIPE_CPR_KEY. Nothing was created',
    );
  }
}
