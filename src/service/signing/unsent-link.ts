import type { Kysely } from 'kysely';
import { recipientOfToken } from '../cases/index.js';
import type { Database } from '../db/index.js';

/** What the link of a draft's recipient tells its holder: the case exists, and is not sent yet. */
export interface UnsentLink {
  title: string;
  /** The case's language (`da`, `en`, ...). */
  language: string;
  sender: { name: string; email: string };
}

/**
 * The notice a draft's signing link opens, or undefined. A draft's create answer holds its
 * recipients' links (spec 2.2's fixed members), and the same links open the case once it is sent
 * (its tokens are made at creation), so until then the link says so rather than "does not work".
 * As for a used link's receipt, only the link itself opens it (its token's SHA-256 looked up as a
 * live link is), so it tells a guesser nothing, and it opens nothing to act on.
 */
export async function readUnsentLink(
  db: Kysely<Database>,
  token: string,
): Promise<UnsentLink | undefined> {
  const row = await recipientOfToken(db, token)
    ?.select(['cases.title', 'cases.language', 'cases.sender_name', 'cases.sender_email'])
    .where('cases.state', '=', 'draft')
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    title: row.title,
    language: row.language,
    sender: { name: row.sender_name, email: row.sender_email },
  };
}
