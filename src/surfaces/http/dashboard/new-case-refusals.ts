import { fill, type PageContext } from '../pages/index.js';

type NewCaseWords = PageContext['words']['newCase'];

/** A settings field's label, by the form's field name. */
const SETTING_LABELS: Record<string, keyof NewCaseWords> = {
  title: 'caseTitle',
  folder: 'folder',
  expiresInDays: 'expiresInDays',
  'reminders.amount': 'remindersAmount',
  'reminders.daysBetween': 'remindersDaysBetween',
  language: 'language',
  message: 'message',
  messageTemplateId: 'messageTemplate',
  presetId: 'preset',
  recipients: 'recipients',
  documents: 'documents',
};

/** A row's field label, by the part of the form's field name after `recipients.N.`. */
const RECIPIENT_LABELS: Record<string, keyof NewCaseWords> = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  channel: 'channel',
  group: 'recipientGroup',
  signingSchema: 'signingMethod',
};

const DOCUMENT_LABELS: Record<string, keyof NewCaseWords> = {
  name: 'documentName',
  file: 'file',
  documentId: 'libraryDocument',
  formDocument: 'formDocument',
};

/**
 * `table[key]` only when the table itself holds it: field names come from the posted form and
 * the service's details, and a field named `constructor` or `__proto__` must not pick up a member
 * of Object.prototype as its label.
 */
function labelOf(
  table: Readonly<Record<string, keyof NewCaseWords>>,
  key: string,
): keyof NewCaseWords | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Where a form field is, in the page's words ("Recipient 2, E-mail"); undefined when unknown. */
function whereOf(w: NewCaseWords, field: string): string | undefined {
  const setting = labelOf(SETTING_LABELS, field);
  if (setting) return w[setting] as string;
  // A row's field, or the row itself (a signer without a place).
  const recipient = /^recipients\.(\d+)(?:\.(\w+))?$/.exec(field);
  if (recipient) {
    const label = recipient[2] === undefined ? undefined : labelOf(RECIPIENT_LABELS, recipient[2]);
    const part = fill(w.recipient, { n: Number(recipient[1]) + 1 });
    return label ? fill(w.refusalPart, { part, field: w[label] as string }) : part;
  }
  const document = /^documents\.(\d+)\.(?:tags\.(.+)|(\w+))$/.exec(field);
  if (document) {
    const part = fill(w.document, { n: Number(document[1]) + 1 });
    // A library field is named by its tag, as its input's label is.
    if (document[2] !== undefined) {
      // A list's cell: its list, its row as the form counts them, its column.
      const cell = /^(.+)\.(\d+)\.([^.]+)$/.exec(document[2]);
      const field = cell
        ? fill(w.listCellPart, { list: cell[1]!, n: Number(cell[2]) + 1, column: cell[3]! })
        : document[2];
      return fill(w.refusalPart, { part, field });
    }
    const label = labelOf(DOCUMENT_LABELS, document[3]!);
    return label ? fill(w.refusalPart, { part, field: w[label] as string }) : part;
  }
  return undefined;
}

/**
 * What to do, for the service's messages the form can earn, in the page's language: the
 * service words its details in English for an API's developer, naming members and formats a
 * person at the form never sees. By the message's own words, unanchored where the service puts
 * a field's label or the given value before them; each is pinned by a test against the
 * service's message, so that a reworded message is caught rather than shown in English.
 */
const RULE_WORDS: readonly [RegExp, keyof NewCaseWords][] = [
  [/^an sms recipient needs a phone number/, 'refusalPhone'],
  [/^an e-mail recipient needs an e-mail address/, 'refusalEmailNeeded'],
  [/^an open case needs at least one recipient/, 'refusalNoRecipient'],
  [/^a case is sent to at least one recipient/, 'refusalNoRecipient'],
  [/^an open case needs at least one document/, 'refusalNoDocument'],
  [/^a case is sent with at least one document/, 'refusalNoDocument'],
  [/ signs but has no place on any document/, 'refusalNoPlace'],
  [
    /is not (?:a date|an ISO 8601 date|a date that exists|a valid date-time)|impossible time/,
    'refusalDate',
  ],
  [/is not a (?:finite )?number/, 'refusalNumber'],
  [/is not true or false/, 'refusalBoolean'],
  [/^no (?:preset|message template|folder with the name or id) .* in the company/, 'refusalGone'],
  [/^no document ".*" in the library/, 'refusalGone'],
  [/ needs a value: the template shows this field/, 'refusalEmpty'],
];

/**
 * What to do, for the structure check's own messages (TypeBox's "must not have fewer than 1
 * characters", 'must match format "email"', "must be <= 20"), which read as code and are in
 * English only, and for the rules' messages RULE_WORDS knows; any other is kept as it is.
 */
function whatOf(w: NewCaseWords, message: string): string {
  const rule = RULE_WORDS.find(([words]) => words.test(message));
  if (rule) return w[rule[1]] as string;
  if (
    /^must not have fewer than 1 characters?$|^is required$|^must have required property/.test(
      message,
    )
  )
    return w.refusalEmpty;
  if (/^must match format "email"$/.test(message)) return w.refusalEmail;
  const most = /^must be <= (-?\d+(?:\.\d+)?)$/.exec(message);
  if (most) return fill(w.refusalAtMost, { n: most[1]! });
  const least = /^must be >= (-?\d+(?:\.\d+)?)$/.exec(message);
  if (least) return fill(w.refusalAtLeast, { n: least[1]! });
  if (/^must be integer$/.test(message)) return w.refusalWholeNumber;
  const long = /^must not have more than (\d+) characters?$/.exec(message);
  if (long) return fill(w.refusalTooLong, { n: long[1]! });
  return message;
}

/**
 * A service refusal as the New case form shows it, next to its field and in the summary: where
 * it is, then what to do. Naming the place keeps two refusals of the same words apart in the
 * summary ("Recipient 1, Name" and "Recipient 2, Name").
 */
export function refusalText(page: PageContext, field: string, message: string): string {
  const w = page.words.newCase;
  const where = whereOf(w, field);
  const what = whatOf(w, message);
  return where === undefined ? what : fill(w.refusalIn, { where, what });
}

/** The place of a form field on the page, top to bottom, so that the summary reads in its order. */
function rankOf(field: string): number {
  if (field === 'title') return 0;
  if (field === 'folder') return 1;
  const document = /^documents(?:\.(\d+))?/.exec(field);
  if (document) return 10 + (document[1] === undefined ? 0 : Number(document[1]) + 1);
  const recipient = /^recipients(?:\.(\d+))?/.exec(field);
  if (recipient) return 1_000 + (recipient[1] === undefined ? 0 : Number(recipient[1]) + 1);
  const settings = Object.keys(SETTING_LABELS).indexOf(field);
  return 10_000 + (settings < 0 ? 100 : settings);
}

/** The refusals in the page's order (a stable sort keeps a row's own fields in theirs). */
export function inPageOrder(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => rankOf(a) - rankOf(b)));
}
