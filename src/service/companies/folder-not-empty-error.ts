/**
 * The folder cannot be deleted: cases are filed in it (they would have nowhere to be), or it is
 * the company's default folder (a case that names none needs one).
 */
export class FolderNotEmptyError extends Error {
  override readonly name = 'FolderNotEmptyError';

  constructor(
    readonly company: string,
    readonly folder: string,
    readonly reason: 'has-cases' | 'is-default',
  ) {
    super(
      reason === 'is-default'
        ? `folder ${folder} is the default folder of company ${company}; make another folder the default first`
        : `folder ${folder} of company ${company} has cases; only an empty folder can be deleted`,
    );
  }
}
