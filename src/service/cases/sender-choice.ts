import type { Kysely } from 'kysely';
import type { FailureDetail } from '../../base/errors/index.js';
import { UserRepository, type User } from '../companies/index.js';
import type { Database } from '../db/index.js';
import type { ServiceNotice } from './case-answer.js';

/** The sender a body names: a member by id or e-mail address, or neither. */
export interface NamedSender {
  senderId?: string;
  senderEmail?: string;
}

/** Who sends, as far as the names and the key tell; the caller picks its slugs. */
export interface SenderChoice {
  /** The member found; undefined when a name found none or the key has no user. */
  sender: User | undefined;
  /** Each name that found no member (or two different ones), at its field. */
  problems: FailureDetail[];
  /** No sender was named and the key has no user (or its user was removed). */
  keyless: boolean;
  /** `sender-defaulted-to-key-creator` when the key's user stands in. */
  notice: ServiceNotice | undefined;
}

/**
 * senderId, senderEmail, or the key's own user with the notice spec 4.4 rule 6 asks for: one
 * rule for everything a member sends (cases, web-flows), so that both word it alike. `what`
 * names the thing sent in the notice ("the case", "the web-flow").
 */
export async function chooseSender(
  db: Kysely<Database>,
  company: string,
  named: NamedSender,
  keyUserId: string | undefined,
  options: { what: string; unknownEmailToKeyUser?: boolean },
): Promise<SenderChoice> {
  const users = new UserRepository(db);
  const problems: FailureDetail[] = [];
  let sender: User | undefined;
  if (named.senderId !== undefined) {
    sender = await users.findById(company, named.senderId);
    if (!sender)
      problems.push({
        field: 'senderId',
        message: `no member with id ${JSON.stringify(named.senderId)} in the company`,
      });
  }
  let given = named.senderId !== undefined || named.senderEmail !== undefined;
  if (named.senderEmail !== undefined) {
    const byEmail = await users.findByEmail(company, named.senderEmail);
    if (!byEmail && options.unknownEmailToKeyUser) given = named.senderId !== undefined;
    else if (!byEmail)
      problems.push({
        field: 'senderEmail',
        message: `no member with the e-mail address ${JSON.stringify(named.senderEmail)} in the company`,
      });
    else if (sender && sender.id !== byEmail.id)
      problems.push({
        field: 'senderEmail',
        message: 'names another member than senderId: send one of them',
      });
    sender ??= byEmail;
  }
  if (given) return { sender, problems, keyless: false, notice: undefined };
  const keyUser = keyUserId === undefined ? undefined : await users.findById(company, keyUserId);
  if (!keyUser) return { sender: undefined, problems, keyless: true, notice: undefined };
  return {
    sender: keyUser,
    problems,
    keyless: false,
    notice: {
      code: 'sender-defaulted-to-key-creator',
      message:
        named.senderEmail === undefined
          ? `no sender was given: ${options.what} is sent by the key's user ${keyUser.email}`
          : `${named.senderEmail} is no member of the company: ${options.what} is sent by the key's user ${keyUser.email}`,
    },
  };
}
