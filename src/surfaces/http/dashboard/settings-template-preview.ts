import {
  MESSAGE_PLACEHOLDERS,
  fillPlaceholders,
  placeholdersIn,
  type MessagePlaceholder,
} from '../../../service/companies/index.js';
import { formatDate } from '../../../service/messages/index.js';
import type { PageContext } from '../pages/index.js';

/** Whom a preview is addressed from and to: the member looking, their company. */
export interface PreviewPeople {
  senderName: string;
  senderEmail: string;
  companyName: string;
  publicUrl: string;
  /** The installation's time zone (DOCPIPE_TIME_ZONE), in which invitations write dates. */
  timeZone: string;
}

/** A template filled with example values, as its invitation would read. */
export interface TemplatePreview {
  subject: string;
  body: string;
  /** Whether the e-mail adds its own signing button (the body has no {{signingUrl}}). */
  addsButton: boolean;
  /** Each placeholder with the value it got here, in the catalogue's order. */
  values: readonly { name: MessagePlaceholder; value: string }[];
}

/** A case's link lives this long by default; the example's expiry is that far ahead. */
const EXAMPLE_DAYS = 14;

/**
 * The example values of every placeholder: the member's own name and address as the sender, the
 * company's name, and made-up case values in the page's language, with the expiry date written
 * as invitations write it (service/messages' formatDate).
 */
export function exampleValues(
  page: PageContext,
  people: PreviewPeople,
  now = new Date(),
): Record<MessagePlaceholder, string> {
  const w = page.words.settings;
  const expires = new Date(now.getTime() + EXAMPLE_DAYS * 86_400_000);
  return {
    'recipient.name': w.exampleRecipient,
    'recipient.email': 'mette@example.com',
    'sender.name': people.senderName,
    'sender.email': people.senderEmail,
    'company.name': people.companyName,
    'case.title': w.exampleTitle,
    'case.referenceId': 'REF-1042',
    'case.expiresAt': formatDate(expires, page.language, people.timeZone),
    'case.message': w.exampleMessage,
    signingUrl: `${people.publicUrl}/sign/example`,
  };
}

/** The template filled as compose-email fills it, with the values shown beside it. */
export function previewTemplate(
  template: { subject: string; body: string },
  values: Record<MessagePlaceholder, string>,
): TemplatePreview {
  return {
    subject: fillPlaceholders(template.subject, values),
    body: fillPlaceholders(template.body, values),
    addsButton: !placeholdersIn(template.body).uses.some((u) => u.name === 'signingUrl'),
    values: (Object.keys(MESSAGE_PLACEHOLDERS) as MessagePlaceholder[]).map((name) => ({
      name,
      value: values[name],
    })),
  };
}
