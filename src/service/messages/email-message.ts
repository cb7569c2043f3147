import { createHash } from 'node:crypto';
import type { SendMailOptions } from 'nodemailer';
import { composeEmail } from './compose-email.js';
import type { DeliveryConfig } from './delivery-config.js';
import type { OutgoingMessage } from './message.js';
import { headerText } from './plain-text.js';

/** A recipient's message that cannot be sent, said as the channel's error. */
export class UnsendableMessage extends Error {
  override readonly name = 'UnsendableMessage';
}

/**
 * The signed copy's documents go as attachments when each can be read and together they are at
 * most `maxBytes`; else as links.
 */
export function attachDocuments(
  documents: OutgoingMessage['documents'],
  maxBytes: number,
): boolean {
  if (!documents || documents.length === 0) return false;
  const total = documents.reduce((sum, d) => sum + d.bytes, 0);
  return total <= maxBytes && documents.every((d) => d.content !== undefined);
}

/**
 * The nodemailer message of `m`: composed, addressed with address objects (a name never parsed as
 * an address list, so a comma or a quote in it adds no recipient), every header value cleaned of
 * controls, and a Message-ID made from `m.id` so that the same message sent again is recognised
 * as the same by the receiving side.
 */
export async function emailMessage(
  m: OutgoingMessage,
  config: Pick<DeliveryConfig, 'from' | 'timeZone' | 'attachMaxBytes'>,
): Promise<SendMailOptions> {
  const address = (m.to.email ?? '').trim();
  if (!address) throw new UnsendableMessage('the recipient has no e-mail address');
  if (!EMAIL.test(address))
    throw new UnsendableMessage("the recipient's e-mail address is not a valid address");
  let attached = attachDocuments(m.documents, config.attachMaxBytes);
  let attachments: SendMailOptions['attachments'] = [];
  if (attached) {
    try {
      attachments = await Promise.all(
        (m.documents ?? []).map(async (d) => ({
          filename: attachmentName(d.name),
          content: await d.content!(),
          contentType: 'application/pdf',
        })),
      );
    } catch {
      // A document that cannot be read now is still reachable by its link.
      attached = false;
      attachments = [];
    }
  }
  const composed = composeEmail(m, { timeZone: config.timeZone, attached });
  const sender = m.sender.email.trim();
  const replyTo =
    m.kind !== 'denial' && m.automatic !== true && EMAIL.test(sender)
      ? { name: headerText(m.sender.name), address: sender }
      : undefined;
  return {
    from: { name: headerText(config.from.name), address: config.from.address },
    to: [{ name: headerText(m.to.name), address }],
    ...(replyTo ? { replyTo } : {}),
    subject: composed.subject,
    text: composed.text,
    html: composed.html,
    attachments,
    messageId: messageIdOf(m.id, config.from.address),
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}

/**
 * An address nodemailer can put in an envelope as it is: one local part and one domain, with no
 * space, control, quote, angle bracket or comma that could make it two addresses or a header.
 */
// eslint-disable-next-line no-control-regex
const EMAIL = /^[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]+@[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]+$/;

/** `<seed@domain>`: the seed as it is when it is a plain atom, else its hash. */
export function messageIdOf(seed: string, from: string): string {
  const domain = from.slice(from.lastIndexOf('@') + 1) || 'localhost';
  const left = /^[A-Za-z0-9._-]{1,100}$/.test(seed)
    ? seed
    : createHash('sha256').update(seed).digest('hex').slice(0, 40);
  return `<${left}@${domain}>`;
}

/** A document's name as an attachment's file name: one clean line, no folders, ending in .pdf. */
function attachmentName(name: string): string {
  const clean = headerText(name, 150).replace(/[/\\]/g, '_') || 'document';
  return /\.pdf$/i.test(clean) ? clean : `${clean}.pdf`;
}
