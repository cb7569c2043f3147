import type { MessageLanguage } from './message-language.js';
import type { SealedDocuments } from './sealed-documents.js';

/**
 * The built-in wording of the e-mails, Danish and English. Values come in as plain text and are
 * escaped where they are shown; nothing here is markup. Danish reads as a Danish company writes:
 * one "underskriver" a document ("signerer" is the anglicism), and a sender is addressed by name.
 */
export interface EmailTexts {
  greeting(name: string): string;
  signOff(company: string): string;
  reference(referenceId: string): string;
  footerToRecipient(sender: string): string;
  footerToSender: string;
  personalLink: string;
  expires(date: string): string;
  invitation: {
    subject(title: string): string;
    intro(sender: string, company: string, title: string): string;
    button: string;
  };
  reminder: {
    subject(title: string, n: number, of: number): string;
    intro(sender: string, company: string, title: string, n: number, of: number): string;
    /** The line put above a message template's body, and its subject's prefix. */
    line(n: number, of: number, date: string): string;
    prefix(n: number, of: number): string;
    button: string;
  };
  signedCopy: {
    subject(title: string): string;
    /**
     * `sealed`: which documents are sealed: `all`, `some` (the others were given by link and
     * signed by reference), `none` (every one was given by link): never a seal that was not made.
     */
    intro(title: string, sealed: SealedDocuments): string;
    attached(count: number): string;
    linked(count: number): string;
    /** After the link of a document signed by reference. */
    byReference: string;
  };
  denial: {
    subject(title: string): string;
    intro(by: string, title: string): string;
    reason(reason: string): string;
    noReason: string;
    after: string;
  };
  /** A web-flow's invitation: answer a few questions on a page of one's own. */
  flowInvitation: {
    subject(title: string): string;
    intro(sender: string, company: string, title: string): string;
    button: string;
  };
  flowReminder: {
    subject(title: string, n: number, of: number): string;
    intro(sender: string, company: string, title: string, n: number, of: number): string;
    button: string;
  };
}

const da: EmailTexts = {
  greeting: (name) => (name ? `Kære ${name}` : 'Hej'),
  signOff: (company) => `Med venlig hilsen\n${company}`,
  reference: (id) => `Reference: ${id}`,
  footerToRecipient: (sender) =>
    `Denne e-mail er sendt automatisk. Svarer du på den, går svaret til ${sender}.`,
  footerToSender: 'Denne e-mail er sendt automatisk.',
  personalLink: 'Linket er personligt, så videresend ikke denne e-mail.',
  expires: (date) => `Linket udløber den ${date}.`,
  invitation: {
    subject: (title) => `Dokument til underskrift: ${title}`,
    intro: (sender, company, title) =>
      `${sender} fra ${company} har sendt dig »${title}« til underskrift.`,
    button: 'Læs og underskriv',
  },
  reminder: {
    subject: (title, n, of) => `Påmindelse ${n} af ${of}: ${title} venter på din underskrift`,
    intro: (sender, company, title, n, of) =>
      `Dette er påmindelse ${n} af ${of}. ${sender} fra ${company} venter stadig på din underskrift på »${title}«.`,
    line: (n, of, date) => `Påmindelse ${n} af ${of}: linket udløber den ${date}.`,
    prefix: (n, of) => `Påmindelse ${n} af ${of}`,
    button: 'Læs og underskriv',
  },
  signedCopy: {
    subject: (title) => `Underskrevet: ${title}`,
    intro: (title, sealed) =>
      sealed === 'all'
        ? `»${title}« er nu underskrevet af alle parter og forseglet, så dokumentet ikke kan ændres.`
        : sealed === 'some'
          ? `»${title}« er nu underskrevet af alle parter. De dokumenter, der blev sendt med sagen, er forseglet, så de ikke kan ændres; dokumenter givet som link er underskrevet med henvisning til linket og ikke forseglet.`
          : `»${title}« er nu underskrevet af alle parter. Dokumenterne blev givet som link: de er underskrevet med henvisning til linket og ikke forseglet, så gem selv en kopi af det, linket viser.`,
    attached: (n) =>
      n === 1
        ? 'Det underskrevne dokument er vedhæftet.'
        : `De ${n} underskrevne dokumenter er vedhæftet.`,
    linked: (n) =>
      n === 1
        ? 'Du kan hente det underskrevne dokument her:'
        : `Du kan hente de ${n} underskrevne dokumenter her:`,
    byReference: 'underskrevet med henvisning til linket, ikke forseglet',
  },
  denial: {
    subject: (title) => `Afvist: ${title}`,
    intro: (by, title) => `${by} har afvist at underskrive »${title}«.`,
    reason: (reason) => `Begrundelse: ${reason}`,
    noReason: 'Der blev ikke givet nogen begrundelse.',
    after: 'Sagen er afsluttet som afvist, og ingen kan længere underskrive den.',
  },
  flowInvitation: {
    subject: (title) => `Vi har brug for dine oplysninger: ${title}`,
    intro: (sender, company, title) =>
      `${sender} fra ${company} beder dig udfylde »${title}«. Dine svar gemmes undervejs, så du kan vende tilbage og gøre det færdigt senere.`,
    button: 'Udfyld',
  },
  flowReminder: {
    subject: (title, n, of) => `Påmindelse ${n} af ${of}: ${title} venter på dine svar`,
    intro: (sender, company, title, n, of) =>
      `Dette er påmindelse ${n} af ${of}. ${sender} fra ${company} venter stadig på dine svar på »${title}«.`,
    button: 'Udfyld',
  },
};

const en: EmailTexts = {
  greeting: (name) => (name ? `Dear ${name}` : 'Hello'),
  signOff: (company) => `Kind regards\n${company}`,
  reference: (id) => `Reference: ${id}`,
  footerToRecipient: (sender) =>
    `This e-mail was sent automatically. A reply to it goes to ${sender}.`,
  footerToSender: 'This e-mail was sent automatically.',
  personalLink: 'The link is personal: please do not forward this e-mail.',
  expires: (date) => `The link expires on ${date}.`,
  invitation: {
    subject: (title) => `Please sign: ${title}`,
    intro: (sender, company, title) => `${sender} of ${company} has sent you “${title}” to sign.`,
    button: 'Review and sign',
  },
  reminder: {
    subject: (title, n, of) => `Reminder ${n} of ${of}: ${title} is waiting for your signature`,
    intro: (sender, company, title, n, of) =>
      `This is reminder ${n} of ${of}. ${sender} of ${company} is still waiting for your signature on “${title}”.`,
    line: (n, of, date) => `Reminder ${n} of ${of}: the link expires on ${date}.`,
    prefix: (n, of) => `Reminder ${n} of ${of}`,
    button: 'Review and sign',
  },
  signedCopy: {
    subject: (title) => `Signed: ${title}`,
    intro: (title, sealed) =>
      sealed === 'all'
        ? `“${title}” has been signed by everyone and sealed, so that it cannot be changed.`
        : sealed === 'some'
          ? `“${title}” has been signed by everyone. The documents sent with the case are sealed, so that they cannot be changed; the ones given by link were signed by reference to the link and not sealed.`
          : `“${title}” has been signed by everyone. Its documents were given by link: they were signed by reference to the link and not sealed, so keep a copy of what the link shows.`,
    attached: (n) =>
      n === 1 ? 'The signed document is attached.' : `The ${n} signed documents are attached.`,
    linked: (n) =>
      n === 1 ? 'Download the signed document here:' : `Download the ${n} signed documents here:`,
    byReference: 'signed by reference to the link, not sealed',
  },
  denial: {
    subject: (title) => `Declined: ${title}`,
    intro: (by, title) => `${by} has declined to sign “${title}”.`,
    reason: (reason) => `Reason: ${reason}`,
    noReason: 'No reason was given.',
    after: 'The case is closed as declined; nobody can sign it any more.',
  },
  flowInvitation: {
    subject: (title) => `Your information is needed: ${title}`,
    intro: (sender, company, title) =>
      `${sender} of ${company} asks you to fill in “${title}”. Your answers are saved as you go, so you can come back and finish later.`,
    button: 'Fill in',
  },
  flowReminder: {
    subject: (title, n, of) => `Reminder ${n} of ${of}: ${title} is waiting for your answers`,
    intro: (sender, company, title, n, of) =>
      `This is reminder ${n} of ${of}. ${sender} of ${company} is still waiting for your answers to “${title}”.`,
    button: 'Fill in',
  },
};

export const EMAIL_TEXTS: Readonly<Record<MessageLanguage, EmailTexts>> = { da, en };
