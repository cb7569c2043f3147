import { Type, type Static } from 'typebox';
import { joinField, type FailureDetail } from '../../base/errors/index.js';
import { TagInputSchema, readerTextProblem, resolveLocale } from '../../document/values/index.js';
import { MAX_JOB_NAME_CHARS } from '../../jobs/queue/index.js';
import { MAX_EMAIL_CHARS, MAX_NAME_CHARS, SIGNING_SCHEMAS } from '../companies/index.js';
import { CasePlacesSchema } from './case-places.js';

/**
 * The body of `POST /v3/api/cases` (spec 2.2), once for validation, the types and the OpenAPI
 * document. Every object is closed (`additionalProperties: false`): v3 refuses what it does not
 * list, with `unknown field` at the member's path (spec 7.2), and that is how the members v2 had
 * and v3 dropped are refused (spec 9: `roles`, `user_name`, `user_email`, `autoSend` at the top,
 * `signingSchemas` at the top, `signingPage`, `realtime`, `type` of case, recipient `order` and
 * `template`, document `file`, `fileIsBlob` and `document_id`, `settings.deletion`,
 * `settings.allowRecipientsViewOthers`, `settings.lang`, `settings.availability`).
 *
 * What JSON Schema says badly is checked by `caseBodyRuleProblems` beside it, in the same pass:
 * a document's one source, `versionId` only with `documentId`, a language docpipe formats for.
 * What needs the company or the bytes (folder, preset, templates, sender, a logo's bytes, an open
 * case's recipients and documents, the documents themselves) is the create service's, afterwards
 * (spec 4.4 rule 2).
 */

/** Longest title and reference: generous, but a bound, so that a case row stays a row. */
export const MAX_TITLE_CHARS = 500;
export const MAX_REFERENCE_CHARS = 200;
/**
 * Most recipients and documents one case may have. A case goes out as one invitation a
 * recipient and its documents through the pipeline at once, and a signer pages through every
 * document: a case of more is a mailing, not a signing. The limits keep one request's work and
 * rows bounded (docs/cases.md#limits); past them is `validation-failed` at `recipients` or
 * `documents`, before anything is looked up or rendered.
 */
export const MAX_CASE_RECIPIENTS = 250;
export const MAX_CASE_DOCUMENTS = 50;
/** Longest id of a record (folder, preset, message template, user, library document). */
const MAX_ID_CHARS = 200;
/** Longest free text of a case: the message shown with the invitation, a position. */
const MAX_MESSAGE_CHARS = 10_000;

const id = (description: string) =>
  Type.String({ minLength: 1, maxLength: MAX_ID_CHARS, description });

const SigningSchema = Type.Enum([...SIGNING_SCHEMAS], {
  description: "a signing scheme: spec 2.1's standard set, or draw (a drawn signature)",
});

/**
 * `settings` (spec 2.2's `settings.*` rows): the ranges are spec 8's and those the preset check
 * (src/service/companies/preset-settings.ts) applies, so that a preset holds only what a case
 * may; a unit test holds the two to the same answers.
 */
export const CaseSettingsSchema = Type.Object(
  {
    autoSend: Type.Optional(Type.Boolean({ description: 'send the invitations on creation' })),
    language: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 35,
        description:
          'signing page language (da, en, sv, nb, nn, no, de, fi, with an optional region); default: the company’s, then da',
      }),
    ),
    expiresInDays: Type.Optional(
      Type.Integer({ minimum: 1, description: 'days until the case expires; default 30' }),
    ),
    reminders: Type.Optional(
      Type.Object(
        {
          send: Type.Optional(Type.Boolean()),
          amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
          daysBetween: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
          autoSend: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    template: Type.Optional(Type.Integer({ minimum: 0, description: 'template number' })),
    message: Type.Optional(
      Type.String({
        maxLength: MAX_MESSAGE_CHARS,
        description: 'custom message; sending it is enough',
      }),
    ),
    signingSchemas: Type.Optional(
      Type.Array(SigningSchema, {
        description:
          'the schemes the recipients may sign with; default: the standard ones this installation serves, or draw',
      }),
    ),
    logo: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'signing page logo: a PNG or JPEG as base64, or a URL of this service',
      }),
    ),
    integrations: Type.Optional(
      Type.Object(
        {
          microsoft: Type.Optional(
            Type.Object(
              {
                returnPath: Type.Optional(
                  Type.String({ pattern: '^/', description: 'must begin with /' }),
                ),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** spec 2.1's e-Boks payload: its members' types are not shown, so each is text. */
const EboksSchema = Type.Object(
  {
    method: Type.Optional(Type.String()),
    cvr: Type.Optional(Type.String()),
    kvhx: Type.Optional(Type.String()),
    address: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/**
 * A v3 recipient: v2's recipient (spec 2.1) with spec 2.2's changes. `email` is optional: an
 * sms or e-Boks recipient is reached without one; that an email recipient has one, and an sms
 * recipient a phone, is the create service's check (spec 4.4 rule 2). Not `cpr`: v2 takes it on
 * form submit only, and a v3 case has nowhere to keep it, so it is refused rather than dropped.
 */
export const CaseRecipientSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_NAME_CHARS }),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: MAX_EMAIL_CHARS,
        description: 'needed by an email recipient (the default type); an sms one needs phone',
      }),
    ),
    signing: Type.Optional(
      Type.Boolean({ description: 'whether the recipient must sign; default true' }),
    ),
    group: Type.Optional(
      Type.Integer({ minimum: 0, description: 'signing order: lower groups sign first' }),
    ),
    messageTemplateId: Type.Optional(id("the recipient's own message template")),
    type: Type.Optional(
      Type.Enum(['email', 'sms', 'eboks'], {
        description: 'how the invitation goes; sms needs phone (v2 called it phone)',
      }),
    ),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    addPhone: Type.Optional(Type.Boolean()),
    needsCpr: Type.Optional(Type.Boolean({ description: 'whether CPR validation is required' })),
    signingSchema: Type.Optional(SigningSchema),
    redirectUrl: Type.Optional(
      Type.String({ format: 'uri', description: 'where the recipient goes after signing' }),
    ),
    position: Type.Optional(
      Type.String({ maxLength: MAX_NAME_CHARS, description: 'signature title' }),
    ),
    message: Type.Optional(Type.String({ maxLength: MAX_MESSAGE_CHARS })),
    eboks: Type.Optional(EboksSchema),
  },
  { additionalProperties: false },
);

/** A v3 document: a name and exactly one source (caseBodyRuleProblems holds it to one). */
export const CaseDocumentSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_JOB_NAME_CHARS }),
    content: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'the PDF or .docx as base64; a .docx is filled with the case’s tags',
      }),
    ),
    url: Type.Optional(
      Type.String({
        format: 'uri',
        description:
          "a URL docpipe issued (an upload's url, a signed download URL) is read from its storage and produced like content; any other URL is kept by reference, never fetched, and takes no tags",
      }),
    ),
    documentId: Type.Optional(id('a library document (GET /v3/api/documents)')),
    versionId: Type.Optional(
      id("one of the library document's versions; default: its current version"),
    ),
    tags: Type.Optional(
      Type.Array(TagInputSchema, {
        description: "this document's own tag values; default: the case's tags",
      }),
    ),
    places: Type.Optional(CasePlacesSchema),
  },
  { additionalProperties: false },
);

export const CaseBodySchema = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: MAX_TITLE_CHARS }),
    referenceId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_REFERENCE_CHARS,
        description: 'your own correlation value; GET /v3/api/cases filters by it',
      }),
    ),
    state: Type.Optional(
      Type.Enum(['draft', 'open'], {
        description: 'draft creates the case without sending; default open',
      }),
    ),
    folder: Type.Optional(id('a folder of the company, by name or id; default: its default')),
    presetId: Type.Optional(id('a preset of the company, whose settings apply first')),
    messageTemplateId: Type.Optional(id('the case’s message template')),
    senderId: Type.Optional(id('a user of the company; default: the key’s user')),
    senderEmail: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: MAX_EMAIL_CHARS,
        description: 'a user of the company, by e-mail',
      }),
    ),
    tags: Type.Optional(
      Type.Array(TagInputSchema, { description: 'values filled into every .docx' }),
    ),
    settings: Type.Optional(CaseSettingsSchema),
    recipients: Type.Optional(
      Type.Array(CaseRecipientSchema, {
        maxItems: MAX_CASE_RECIPIENTS,
        description: `at most ${MAX_CASE_RECIPIENTS}`,
      }),
    ),
    documents: Type.Optional(
      Type.Array(CaseDocumentSchema, {
        maxItems: MAX_CASE_DOCUMENTS,
        description: `at most ${MAX_CASE_DOCUMENTS}`,
      }),
    ),
  },
  { additionalProperties: false },
);

/** A body that passed CaseBodySchema and caseBodyRuleProblems. */
export type CaseBody = Static<typeof CaseBodySchema>;
export type CaseSettings = Static<typeof CaseSettingsSchema>;
export type CaseRecipient = Static<typeof CaseRecipientSchema>;
export type CaseDocument = Static<typeof CaseDocumentSchema>;

const SOURCES = ['content', 'url', 'documentId'] as const;

/**
 * The structural rules JSON Schema cannot say in words a caller understands, over any JSON
 * value (the schema's findings may be there too): each document names exactly one source, a
 * `versionId` goes with a `documentId`, `settings.language` is one docpipe formats for, and
 * the texts people read hold no control or bidi characters. Each problem has its path; none
 * when the members are absent or of the wrong type (the schema says that).
 */
export function caseBodyRuleProblems(body: unknown): FailureDetail[] {
  if (!isObject(body)) return [];
  const problems: FailureDetail[] = [];
  if (Array.isArray(body.documents))
    body.documents.forEach((document: unknown, i) => {
      if (!isObject(document)) return;
      const at = `documents[${i}]`;
      const given = SOURCES.filter((s) => document[s] !== undefined);
      if (given.length !== 1)
        problems.push({
          field: at,
          message:
            given.length === 0
              ? 'needs one source: content, url or documentId'
              : `has ${given.join(' and ')}: give exactly one source of content, url or documentId`,
        });
      if (document.versionId !== undefined && document.documentId === undefined)
        problems.push({
          field: joinField(at, 'versionId'),
          message: 'goes with documentId: it names a version of that library document',
        });
    });
  if (isObject(body.settings) && typeof body.settings.language === 'string') {
    const resolved = resolveLocale(body.settings.language);
    if (typeof resolved === 'string')
      problems.push({ field: 'settings.language', message: resolved });
  }
  problems.push(...readerTextProblems(body));
  return problems;
}

/**
 * The texts of a case that signers and receivers read: on the signing page, in the invitations,
 * in webhook bodies and on the audit trail. Each is held to the value policy's characters
 * (readerTextProblem: no control characters, no bidi controls); a message may have lines.
 */
function readerTextProblems(body: Record<string, unknown>): FailureDetail[] {
  const problems: FailureDetail[] = [];
  const check = (value: unknown, field: string, lines = false) => {
    if (typeof value !== 'string') return;
    const message = readerTextProblem(value, { lines });
    if (message) problems.push({ field, message });
  };
  check(body.title, 'title');
  check(body.referenceId, 'referenceId');
  if (isObject(body.settings)) check(body.settings.message, 'settings.message', true);
  if (Array.isArray(body.recipients))
    body.recipients.forEach((r: unknown, i) => {
      if (!isObject(r)) return;
      check(r.name, `recipients[${i}].name`);
      check(r.position, `recipients[${i}].position`);
      check(r.message, `recipients[${i}].message`, true);
    });
  if (Array.isArray(body.documents))
    body.documents.forEach((d: unknown, i) => {
      if (isObject(d)) check(d.name, `documents[${i}].name`);
    });
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const { documents: _documents, ...caseMembers } = CaseBodySchema.properties;

/**
 * The body of `POST /v3/api/documents/{id}/cases` (spec 4.4): a case made from one library
 * document, filled with the case's `tags`. The case body without `documents` (the path names
 * the one document; `documents` is an unknown field here), and which version to use.
 */
export const LibraryCaseBodySchema = Type.Object(
  {
    ...caseMembers,
    versionId: Type.Optional(
      id("one of the library document's versions; default: its current version"),
    ),
  },
  { additionalProperties: false },
);

export type LibraryCaseBody = Static<typeof LibraryCaseBodySchema>;
