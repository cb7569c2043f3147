import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import type { AccountMailer } from './account-mailer.js';

/** What the account use cases work with; the HTTP surface and the CLI each make one. */
export interface AccountDeps {
  db: Kysely<Database>;
  mailer: AccountMailer;
  /** The base of the links in the e-mails (`https://docpipe.example`, no trailing slash). */
  publicUrl: string;
}

/** The pages the e-mails link to. */
export const accountUrls = {
  confirm: (base: string, token: string) => `${base}/user/confirm/${token}`,
  reset: (base: string, token: string) => `${base}/user/password/reset/${token}`,
  invitation: (base: string, token: string) => `${base}/user/invitation/${token}`,
  login: (base: string) => `${base}/user/login`,
  forgot: (base: string) => `${base}/user/password/forgot`,
};
