/**
 * Removing or demoting the member would leave the company without an admin, and then nobody
 * could manage its keys, webhooks, members or settings from the dashboard.
 */
export class LastAdminError extends Error {
  override readonly name = 'LastAdminError';

  constructor(
    readonly company: string,
    readonly email: string,
  ) {
    super(`${email} is the last admin of company ${company}; make another member an admin first`);
  }
}
