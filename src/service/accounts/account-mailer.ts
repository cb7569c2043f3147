import { randomUUID } from 'node:crypto';
import type { ChannelResult, MailAddress, MessageChannel } from '../messages/index.js';
import { ACCOUNT_MAIL_TEXTS, type AccountMailKind } from './account-mail-texts.js';

/** One e-mail of a person's account: to whom, in which language, and its link. */
export interface AccountMail {
  kind: AccountMailKind;
  language: 'da' | 'en';
  to: { email: string; name: string };
  /** The link the e-mail is for: confirm, reset, accept the invitation, or log in (`exists`). */
  url: string;
  /** The company it is about (confirm, invite). */
  company?: string;
  /** invite: who invited them, when a person did. */
  invitedBy?: string;
  /** exists: where to choose a new password. */
  resetUrl?: string;
}

/** Sends the account's e-mails; never throws: what happened is the channel's result. */
export interface AccountMailer {
  send(mail: AccountMail): Promise<ChannelResult>;
}

/**
 * Each e-mail's name where it is a file (the .eml folder): what it is, as the person it is for
 * would say it, not the kind of case message it travels as.
 */
const FILE_LABELS: Record<AccountMailKind, string> = {
  confirm: 'confirm-email',
  reset: 'reset-password',
  invite: 'invitation',
  exists: 'account-exists',
};

/** A link's e-mail has nothing to expire as a case does; its lifetime is said in the text. */
const FAR_EXPIRY = new Date('2999-12-31T00:00:00Z');

/**
 * The account's e-mails over the installation's e-mail channel (SMTP, or the .eml folder), so
 * that they leave exactly as a case's messages do (From, DKIM, the folder's permissions). The
 * channels compose case messages; an account's e-mail goes as a message whose template is the
 * account's text, its link in the `{{signingUrl}}` placeholder, marked `automatic`: no one to
 * reply to, no Reply-To.
 */
export function channelMailer(channel: MessageChannel, from: MailAddress): AccountMailer {
  return {
    async send(mail) {
      const texts = ACCOUNT_MAIL_TEXTS[mail.language][mail.kind];
      const values = {
        name: mail.to.name,
        company: mail.company ?? '',
        invitedBy: mail.invitedBy ?? '',
        resetUrl: mail.resetUrl ?? '',
      };
      const subject = texts.subject(values);
      return channel.send({
        kind: 'invitation',
        language: mail.language,
        to: { name: mail.to.name, email: mail.to.email },
        company: { name: mail.company || from.name },
        sender: { name: from.name, email: from.address },
        case: { id: `account-${mail.kind}`, title: subject, expiresAt: FAR_EXPIRY },
        template: { subject, body: texts.body(values) },
        signingUrl: mail.url,
        id: `account-${mail.kind}-${randomUUID()}`,
        automatic: true,
        fileLabel: FILE_LABELS[mail.kind],
      });
    },
  };
}
