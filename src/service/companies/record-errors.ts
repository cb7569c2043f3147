/** The records a company owns, as errors and messages name them. */
export type RecordKind =
  | 'company'
  | 'user'
  | 'folder'
  | 'preset'
  | 'message template'
  | 'partner'
  | 'credit purchase'
  | 'payout';

/** One problem of a record's input: where it is (a field or a path into a file) and what is wrong. */
export interface RecordProblem {
  /** `email`, `settings.reminders.amount`, `body`. */
  path: string;
  message: string;
}

/**
 * The record is there already: a company id taken, an e-mail address already a member (whatever
 * its case), a folder, preset or template name or id the company already has.
 */
export class RecordExistsError extends Error {
  override readonly name = 'RecordExistsError';

  constructor(
    readonly kind: RecordKind,
    /** What makes it the same record: `acme`, `ann@acme.example`, `folder "Leases"`. */
    readonly key: string,
    /** The company it belongs to; none for a company itself. */
    readonly company?: string,
  ) {
    super(`${kind} ${key} already exists${company === undefined ? '' : ` in company ${company}`}`);
  }
}

/**
 * The record is not there: a company id nobody created, an e-mail address that is no member of
 * the company. Another company's record answers the same (tenancy: absent, never forbidden).
 */
export class RecordNotFoundError extends Error {
  override readonly name = 'RecordNotFoundError';

  constructor(
    readonly kind: RecordKind,
    readonly key: string,
    readonly company?: string,
  ) {
    super(`${kind} ${key} does not exist${company === undefined ? '' : ` in company ${company}`}`);
  }
}

/** The input of a record is refused: every problem at once, each with its path. */
export class RecordInvalidError extends Error {
  override readonly name = 'RecordInvalidError';

  constructor(
    readonly kind: RecordKind,
    readonly problems: readonly RecordProblem[],
  ) {
    super(`${kind} refused: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  }
}

/** Throws RecordInvalidError when there are problems. */
export function refuseProblems(kind: RecordKind, problems: readonly RecordProblem[]): void {
  if (problems.length > 0) throw new RecordInvalidError(kind, problems);
}
