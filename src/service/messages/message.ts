/**
 * The four messages of a case, and the two of a web-flow (issue 36): its invitation to answer and
 * its reminders, each with the person's own link to the flow's page.
 */
export type MessageKind =
  'invitation' | 'reminder' | 'signed-copy' | 'denial' | 'flow-invitation' | 'flow-reminder';

/** The channels a message goes over (webhooks are events, not messages). */
export type ChannelName = 'email' | 'sms' | 'eboks';

/** One message to one person, with everything its text needs: the channel composes and sends it. */
export interface OutgoingMessage {
  kind: MessageKind;
  /** The case's language: 'da' or 'en' texts; any other -> 'en'. */
  language: string;
  to: { name: string; email?: string | null; phone?: string | null };
  company: { name: string; logoUrl?: string | null };
  sender: { name: string; email: string };
  /**
   * What the message is about: the case, or for a web-flow's messages the flow (its id, title,
   * expiry and message; no reference), so that texts, logs and file names read one shape.
   */
  case: {
    id: string;
    title: string;
    referenceId?: string | null;
    expiresAt: Date;
    message?: string | null;
  };
  /**
   * invitation and reminder: the recipient's signing link; flow-invitation and flow-reminder:
   * the person's link to the flow's page. A secret either way: logs and errors never show it.
   */
  signingUrl?: string;
  /** A message template (the case's or the recipient's messageTemplateId), placeholders unfilled. */
  template?: { subject: string; body: string } | null;
  /** reminder: which one, of how many. */
  reminder?: { number: number; of: number };
  /**
   * signed-copy: the sealed PDFs; each attached when the total is at most the attach limit, else
   * linked. `byReference`: a document given by another host's URL, signed by reference to it and
   * not sealed (it has no content): the message never calls it sealed.
   */
  documents?: {
    name: string;
    bytes: number;
    url: string;
    content?: () => Promise<Buffer>;
    byReference?: boolean;
  }[];
  /** denial (to the sender): who denied and why. */
  denial?: { by: string; reason: string | null };
  /** Message-ID seed: the same message retried gets the same Message-ID (idempotent at the receiver). */
  id: string;
  /**
   * A message no person sends (a dashboard account's e-mail: confirm, reset, invitation): its
   * footer says it was sent automatically, with no one to reply to, and it has no Reply-To.
   */
  automatic?: boolean;
  /**
   * What the message is, in the words its reader would use (`confirm-email`, `reset-password`),
   * for a message of no case: the .eml folder names its file so. Without it the name says the
   * message's case and kind.
   */
  fileLabel?: string;
}

/** What became of one message on one channel. */
export interface ChannelResult {
  ok: boolean;
  error?: string;
  /** where it went: an .eml path, the SMTP Message-ID, the gateway's id */
  location?: string;
}

/** One way of reaching a person. `configured: false` channels answer every send with ok: false. */
export interface MessageChannel {
  readonly name: ChannelName;
  readonly configured: boolean;
  send(m: OutgoingMessage): Promise<ChannelResult>;
  close(): Promise<void>;
}

/** Every channel of an installation, made once by messageChannels. */
export interface MessageChannels {
  email: MessageChannel;
  sms: MessageChannel;
  eboks: MessageChannel;
  close(): Promise<void>;
}
