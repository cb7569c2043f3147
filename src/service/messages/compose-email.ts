import { fillPlaceholders, placeholdersIn, type MessagePlaceholder } from '../companies/index.js';
import { defang } from './defang.js';
import { blocksToHtml, blocksToText, type MessageBlock } from './message-blocks.js';
import { EMAIL_TEXTS, type EmailTexts } from './email-texts.js';
import { htmlPage } from './html.js';
import { formatDate, messageLanguage, type MessageLanguage } from './message-language.js';
import type { OutgoingMessage } from './message.js';
import { sealedDocuments } from './sealed-documents.js';
import { bodyText, headerText } from './plain-text.js';

/** An e-mail's subject (one clean header line), text part and HTML part. */
export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface ComposeEmailOptions {
  /** The zone the expiry date is shown in. */
  timeZone: string;
  /** signed-copy: the documents go as attachments (else as links). */
  attached: boolean;
}

/** A subject is one header line; RFC 5322 lines stop at 998 characters, and readers at far fewer. */
const MAX_SUBJECT_CHARS = 250;

/**
 * The e-mail of `m`, in the case's language. A message template, when given, replaces the
 * built-in subject and body with its placeholders filled; what a kind must always say is kept
 * around it: which reminder it is, the signing link when the template leaves it out, the signed
 * documents, the reason of a denial. Throws when `m` lacks what its kind needs (a programming
 * error of the caller, reported by the channel as the send's error).
 */
export function composeEmail(m: OutgoingMessage, options: ComposeEmailOptions): ComposedEmail {
  const language = messageLanguage(m.language);
  const t = EMAIL_TEXTS[language];
  const date = formatDate(m.case.expiresAt, language, options.timeZone);
  const title = headerText(m.case.title, MAX_SUBJECT_CHARS);
  const built = m.template
    ? fromTemplate(m, m.template, t, date, options)
    : builtIn(m, t, title, date, options);
  const subject = headerText(built.subject, MAX_SUBJECT_CHARS);
  // The sender's own messages (a denial, their signed copy) and those nobody sends (an account's)
  // do not say a reply goes to someone.
  const toSender = m.automatic === true || m.kind === 'denial' || m.to.email === m.sender.email;
  const footer = toSender ? t.footerToSender : t.footerToRecipient(headerText(m.sender.name));
  return {
    subject,
    text: blocksToText(built.blocks, footer),
    html: htmlPage({
      language,
      title: subject,
      logoUrl: m.company.logoUrl,
      company: headerText(m.company.name),
      body: blocksToHtml(built.blocks),
      footer,
    }),
  };
}

/** The values of a template's placeholders, each as body text (line breaks kept, controls gone). */
export function placeholderValues(
  m: OutgoingMessage,
  language: MessageLanguage,
  timeZone: string,
): Partial<Record<MessagePlaceholder, string>> {
  return {
    'recipient.name': bodyText(m.to.name),
    'recipient.email': bodyText(m.to.email),
    'sender.name': bodyText(m.sender.name),
    'sender.email': bodyText(m.sender.email),
    'company.name': bodyText(m.company.name),
    'case.title': bodyText(m.case.title),
    'case.referenceId': bodyText(m.case.referenceId),
    'case.expiresAt': formatDate(m.case.expiresAt, language, timeZone),
    'case.message': bodyText(m.case.message),
    signingUrl: m.signingUrl ?? '',
  };
}

interface Built {
  subject: string;
  blocks: MessageBlock[];
}

function builtIn(
  m: OutgoingMessage,
  t: EmailTexts,
  title: string,
  date: string,
  options: ComposeEmailOptions,
): Built {
  const sender = headerText(m.sender.name);
  const company = headerText(m.company.name);
  const greeting: MessageBlock = {
    kind: 'paragraph',
    text: `${t.greeting(headerText(m.to.name))},`,
  };
  const message: MessageBlock[] = m.case.message?.trim()
    ? [{ kind: 'quote', text: m.case.message }]
    : [];
  const reference: MessageBlock[] = m.case.referenceId?.trim()
    ? [{ kind: 'paragraph', text: t.reference(headerText(m.case.referenceId)) }]
    : [];
  const signOff: MessageBlock = { kind: 'paragraph', text: t.signOff(company) };
  const expiry: MessageBlock = {
    kind: 'paragraph',
    text: `${t.expires(date)} ${t.personalLink}`,
  };
  // What every message asking for something has: who asks, the link's button, until when.
  // A flow has no reference of its own (m.case.referenceId is a case's).
  const asking = (intro: string, button: string): MessageBlock[] => [
    greeting,
    { kind: 'paragraph', text: intro },
    ...message,
    { kind: 'button', label: button, url: signingUrlOf(m) },
    expiry,
    ...reference,
    signOff,
  ];
  switch (m.kind) {
    case 'invitation':
      return {
        subject: t.invitation.subject(title),
        blocks: asking(t.invitation.intro(sender, company, title), t.invitation.button),
      };
    case 'reminder': {
      const { number, of } = reminderOf(m);
      return {
        subject: t.reminder.subject(title, number, of),
        blocks: asking(t.reminder.intro(sender, company, title, number, of), t.reminder.button),
      };
    }
    case 'signed-copy':
      return {
        subject: t.signedCopy.subject(title),
        blocks: [
          greeting,
          { kind: 'paragraph', text: t.signedCopy.intro(title, sealedDocuments(m)) },
          ...documentBlocks(m, t, options),
          ...reference,
          signOff,
        ],
      };
    case 'denial':
      return {
        subject: t.denial.subject(title),
        blocks: [greeting, ...denialBlocks(m, t, title), ...reference],
      };
    case 'flow-invitation':
      return {
        subject: t.flowInvitation.subject(title),
        blocks: asking(t.flowInvitation.intro(sender, company, title), t.flowInvitation.button),
      };
    case 'flow-reminder': {
      const { number, of } = reminderOf(m);
      return {
        subject: t.flowReminder.subject(title, number, of),
        blocks: asking(
          t.flowReminder.intro(sender, company, title, number, of),
          t.flowReminder.button,
        ),
      };
    }
  }
}

function fromTemplate(
  m: OutgoingMessage,
  template: { subject: string; body: string },
  t: EmailTexts,
  date: string,
  options: ComposeEmailOptions,
): Built {
  const language = messageLanguage(m.language);
  const values = placeholderValues(m, language, options.timeZone);
  let subject = fillPlaceholders(template.subject, values);
  const blocks: MessageBlock[] = [];
  if (m.kind === 'reminder') {
    const { number, of } = reminderOf(m);
    subject = `${t.reminder.prefix(number, of)}: ${subject}`;
    blocks.push({ kind: 'paragraph', text: t.reminder.line(number, of, date) });
  }
  blocks.push({ kind: 'text', text: fillPlaceholders(template.body, values) });
  const linksItself = placeholdersIn(template.body).uses.some((u) => u.name === 'signingUrl');
  if ((m.kind === 'invitation' || m.kind === 'reminder') && !linksItself)
    blocks.push({
      kind: 'button',
      label: (m.kind === 'invitation' ? t.invitation : t.reminder).button,
      url: signingUrlOf(m),
    });
  if (m.kind === 'signed-copy') blocks.push(...documentBlocks(m, t, options));
  if (m.kind === 'denial')
    blocks.push(...denialBlocks(m, t, headerText(m.case.title, MAX_SUBJECT_CHARS)));
  return { subject, blocks };
}

function documentBlocks(
  m: OutgoingMessage,
  t: EmailTexts,
  options: ComposeEmailOptions,
): MessageBlock[] {
  const documents = m.documents ?? [];
  if (documents.length === 0) return [];
  if (options.attached)
    return [{ kind: 'paragraph', text: t.signedCopy.attached(documents.length) }];
  return [
    { kind: 'paragraph', text: t.signedCopy.linked(documents.length) },
    {
      kind: 'links',
      items: documents.map((d) => ({
        label: d.byReference ? `${d.name} (${t.signedCopy.byReference})` : d.name,
        url: d.url,
      })),
    },
  ];
}

function denialBlocks(m: OutgoingMessage, t: EmailTexts, title: string): MessageBlock[] {
  if (!m.denial) throw new Error('a denial message needs denial (who denied, and why)');
  const reason = m.denial.reason?.trim();
  return [
    { kind: 'paragraph', text: t.denial.intro(headerText(m.denial.by), title) },
    reason
      ? // The signer wrote it: shown, never a link (defang.ts says why).
        { kind: 'quote', text: t.denial.reason(defang(bodyText(reason))), links: false }
      : { kind: 'paragraph', text: t.denial.noReason },
    { kind: 'paragraph', text: t.denial.after },
  ];
}

function signingUrlOf(m: OutgoingMessage): string {
  if (!m.signingUrl) throw new Error(`a message of kind ${m.kind} needs signingUrl`);
  return m.signingUrl;
}

function reminderOf(m: OutgoingMessage): { number: number; of: number } {
  if (!m.reminder) throw new Error('a reminder message needs reminder (its number, of how many)');
  return m.reminder;
}
