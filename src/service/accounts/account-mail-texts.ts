/** The e-mails of a person's account, in Danish and English. */
export type AccountMailKind = 'confirm' | 'reset' | 'invite' | 'exists';

export interface AccountMailValues {
  name: string;
  company: string;
  invitedBy: string;
  resetUrl: string;
}

interface AccountMailText {
  subject: (v: AccountMailValues) => string;
  /** The body; `{{signingUrl}}` is where the link goes (the message channels' placeholder). */
  body: (v: AccountMailValues) => string;
}

export const ACCOUNT_MAIL_TEXTS: Record<'da' | 'en', Record<AccountMailKind, AccountMailText>> = {
  en: {
    confirm: {
      subject: () => 'Confirm your e-mail address for docpipe',
      body: (v) =>
        `Hello ${v.name},\n\nYou created the docpipe account of ${v.company}. Open this link to confirm that this e-mail address is yours:\n\n{{signingUrl}}\n\nThe link works for 7 days. If you did not sign up, you can ignore this e-mail.`,
    },
    reset: {
      subject: () => 'Choose a new docpipe password',
      body: (v) =>
        `Hello ${v.name},\n\nSomeone asked to reset the password of your docpipe account. Open this link to choose a new one:\n\n{{signingUrl}}\n\nThe link works for 1 hour and only once. If you did not ask, ignore this e-mail: your password stays as it is.`,
    },
    invite: {
      subject: (v) => `You are invited to ${v.company} on docpipe`,
      body: (v) =>
        `Hello ${v.name},\n\n${v.invitedBy ? `${v.invitedBy} has invited you` : 'You are invited'} to join ${v.company} on docpipe. Open this link to accept and choose your password:\n\n{{signingUrl}}\n\nThe link works for 7 days.`,
    },
    exists: {
      subject: () => 'You already have a docpipe account',
      body: (v) =>
        `Hello,\n\nSomeone tried to sign up for docpipe with this e-mail address, which already has an account. Log in here:\n\n{{signingUrl}}\n\nForgot your password? Choose a new one here:\n${v.resetUrl}\n\nIf it was not you, you can ignore this e-mail.`,
    },
  },
  da: {
    confirm: {
      subject: () => 'Bekræft din e-mailadresse til docpipe',
      body: (v) =>
        `Hej ${v.name}\n\nDu har oprettet docpipe-kontoen for ${v.company}. Åbn dette link for at bekræfte, at e-mailadressen er din:\n\n{{signingUrl}}\n\nLinket virker i 7 dage. Har du ikke oprettet en konto, kan du se bort fra denne e-mail.`,
    },
    reset: {
      subject: () => 'Vælg en ny adgangskode til docpipe',
      body: (v) =>
        `Hej ${v.name}\n\nNogen har bedt om at nulstille adgangskoden til din docpipe-konto. Åbn dette link for at vælge en ny:\n\n{{signingUrl}}\n\nLinket virker i 1 time og kun én gang. Har du ikke bedt om det, kan du se bort fra denne e-mail: din adgangskode er uændret.`,
    },
    invite: {
      subject: (v) => `Du er inviteret til ${v.company} på docpipe`,
      body: (v) =>
        `Hej ${v.name}\n\n${v.invitedBy ? `${v.invitedBy} har inviteret dig` : 'Du er inviteret'} til ${v.company} på docpipe. Åbn dette link for at tage imod invitationen og vælge din adgangskode:\n\n{{signingUrl}}\n\nLinket virker i 7 dage.`,
    },
    exists: {
      subject: () => 'Du har allerede en docpipe-konto',
      body: (v) =>
        `Hej\n\nNogen har forsøgt at oprette en docpipe-konto med denne e-mailadresse, som allerede har en konto. Log ind her:\n\n{{signingUrl}}\n\nHar du glemt din adgangskode? Vælg en ny her:\n${v.resetUrl}\n\nVar det ikke dig, kan du se bort fra denne e-mail.`,
    },
  },
};
