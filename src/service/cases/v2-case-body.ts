import { Type, type Static } from 'typebox';
import { TagInputSchema } from '../../document/values/index.js';
import { MAX_JOB_NAME_CHARS } from '../../jobs/queue/index.js';
import { MAX_EMAIL_CHARS, MAX_NAME_CHARS, SIGNING_SCHEMAS } from '../companies/index.js';
import {
  MAX_CASE_DOCUMENTS,
  MAX_CASE_RECIPIENTS,
  MAX_REFERENCE_CHARS,
  MAX_TITLE_CHARS,
} from './case-body.js';

/**
 * The body of `POST /api/v2/{company}/case/create` (spec 4.2, 2.1), once for validation, the
 * types and the OpenAPI document. Every object is open (`additionalProperties: true`): v2 ignored
 * members it did not know, and it still does (spec 9). The members it knows carry the same
 * ranges as their v3 counterparts (case-body.ts), so that a v2 case is held to what a v3 case
 * is. The rules a schema says badly (`title` or `name`, a document's `file`, `document_id`,
 * `cpr`, `settings.lang`) are `v2BodyRuleProblems` (v2-case-check.ts), in the same pass.
 */

const MAX_ID_CHARS = 200;
const MAX_MESSAGE_CHARS = 10_000;

const open = { additionalProperties: true } as const;
const id = (description: string) =>
  Type.String({ minLength: 1, maxLength: MAX_ID_CHARS, description });

const SigningSchema = Type.Enum([...SIGNING_SCHEMAS], {
  description: "a signing scheme: spec 2.1's standard set, or draw (a drawn signature)",
});

/** spec 2.1's CaseSettings: all members optional, extra members allowed and kept. */
export const V2CaseSettingsSchema = Type.Object(
  {
    reminders: Type.Optional(
      Type.Object(
        {
          send: Type.Optional(Type.Boolean()),
          amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
          daysBetween: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
        },
        open,
      ),
    ),
    deletion: Type.Optional(
      Type.Object(
        {
          autoDelete: Type.Optional(Type.Boolean()),
          days: Type.Optional(Type.Integer({ minimum: 0 })),
        },
        open,
      ),
    ),
    availability: Type.Optional(
      Type.Object(
        {
          unlimited: Type.Optional(Type.Boolean()),
          days: Type.Optional(
            Type.Integer({ minimum: 1, description: 'days until the case expires; default 90' }),
          ),
          expiration: Type.Optional(Type.String({ format: 'date-time' })),
          isExpired: Type.Optional(Type.Boolean()),
        },
        open,
      ),
    ),
    template: Type.Optional(Type.Integer({ minimum: 0, description: 'template number' })),
    lang: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 35,
        description: 'signing page language (da, en, sv, ...); default da',
      }),
    ),
    allowAPI: Type.Optional(Type.Boolean()),
    allowRecipientsViewOthers: Type.Optional(Type.Boolean()),
    allowedRoles: Type.Optional(Type.Array(Type.String())),
  },
  open,
);

/** spec 2.1's v2 recipient (input). */
export const V2RecipientSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_NAME_CHARS }),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: MAX_EMAIL_CHARS,
        description: 'needed by an email recipient (the default type); a phone one needs phone',
      }),
    ),
    signing: Type.Optional(
      Type.Boolean({ description: 'whether the recipient must sign; default false (v3: true)' }),
    ),
    needsCpr: Type.Optional(Type.Boolean()),
    cpr: Type.Optional(
      Type.String({ description: 'not taken on case create yet: it is refused, never stored' }),
    ),
    signingSchema: Type.Optional(SigningSchema),
    redirectUrl: Type.Optional(
      Type.String({ format: 'uri', description: 'where the recipient goes after signing' }),
    ),
    addPhone: Type.Optional(Type.Boolean()),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    group: Type.Optional(
      Type.Integer({ minimum: 0, description: 'signing order: lower groups sign first' }),
    ),
    order: Type.Optional(Type.Integer({ minimum: 0, description: 'the legacy name of group' })),
    position: Type.Optional(
      Type.String({ maxLength: MAX_NAME_CHARS, description: 'signature title' }),
    ),
    type: Type.Optional(
      Type.Enum(['email', 'phone', 'sms', 'eboks'], {
        description: 'how the invitation goes; phone (v3: sms) needs phone',
      }),
    ),
    template: Type.Optional(id("the recipient's own message template (v3: messageTemplateId)")),
    message: Type.Optional(Type.String({ maxLength: MAX_MESSAGE_CHARS })),
    eboks: Type.Optional(
      Type.Object(
        {
          method: Type.Optional(Type.String()),
          cvr: Type.Optional(Type.String()),
          kvhx: Type.Optional(Type.String()),
          address: Type.Optional(Type.String()),
          name: Type.Optional(Type.String()),
        },
        open,
      ),
    ),
  },
  open,
);

/** spec 2.1's case document (v2 input). */
export const V2DocumentSchema = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_JOB_NAME_CHARS,
        description: 'default: "Document <n>", its place in the list from 1',
      }),
    ),
    file: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "base64 bytes of a PDF or .docx (fileIsBlob true), or a URL (fileIsBlob false): one docpipe issued (an upload's url, a convert answer's file) is read from its storage and kept with the case, any other is kept by reference",
      }),
    ),
    fileIsBlob: Type.Optional(
      Type.Boolean({
        description: 'default: false when file is an http(s) URL, else true',
      }),
    ),
    document_id: Type.Optional(
      Type.String({ description: 'not supported: refused; upload the file and send it as file' }),
    ),
    signObligated: Type.Optional(Type.Boolean()),
    documentMustBeRead: Type.Optional(Type.Boolean()),
    signatories: Type.Optional(Type.Array(Type.Unknown())),
  },
  open,
);

export const V2CaseBodySchema = Type.Object(
  {
    title: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_TITLE_CHARS, description: 'or name' }),
    ),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_TITLE_CHARS,
        description: 'title, by its old name',
      }),
    ),
    referenceId: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_REFERENCE_CHARS })),
    folder: Type.Optional(
      id('a folder of the company, by name or id; unknown or absent: its default folder'),
    ),
    autoSend: Type.Optional(Type.Boolean()),
    reminderAutoSend: Type.Optional(Type.Boolean()),
    template: Type.Optional(Type.Integer({ minimum: 0, description: 'template number' })),
    emailtemplate: Type.Optional(id('the case’s message template')),
    emailTemplate: Type.Optional(id('the case’s message template')),
    customMessage: Type.Optional(
      Type.Boolean({ description: 'with message: the message shown to the recipients' }),
    ),
    message: Type.Optional(Type.String({ maxLength: MAX_MESSAGE_CHARS })),
    user: Type.Optional(id('the sending member’s id (v3: senderId)')),
    user_email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: MAX_EMAIL_CHARS,
        description:
          "the sender's e-mail as the case shows it; a member with it sends the case, else the key's user",
      }),
    ),
    user_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_NAME_CHARS,
        description: "the sender's name as the case shows it",
      }),
    ),
    signingSchemas: Type.Optional(Type.Array(SigningSchema)),
    signingPage: Type.Optional(
      Type.Object(
        {
          logo: Type.Optional(
            Type.String({
              minLength: 1,
              description: 'a PNG or JPEG as base64, or a URL of this service',
            }),
          ),
        },
        open,
      ),
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
              open,
            ),
          ),
        },
        open,
      ),
    ),
    tags: Type.Optional(
      Type.Array(TagInputSchema, { description: 'values filled into every .docx' }),
    ),
    settings: Type.Optional(V2CaseSettingsSchema),
    recipients: Type.Optional(
      Type.Array(V2RecipientSchema, {
        maxItems: MAX_CASE_RECIPIENTS,
        description: `at most ${MAX_CASE_RECIPIENTS}`,
      }),
    ),
    documents: Type.Optional(
      Type.Array(V2DocumentSchema, {
        maxItems: MAX_CASE_DOCUMENTS,
        description: `at most ${MAX_CASE_DOCUMENTS}`,
      }),
    ),
  },
  open,
);

/** v2 accepts its body as it is or wrapped in `values` (spec 9). */
export const V2WrappedCaseBodySchema = Type.Object({ values: V2CaseBodySchema }, open);

/** A body that passed V2CaseBodySchema and the v2 rules. */
export type V2CaseBody = Static<typeof V2CaseBodySchema>;
export type V2CaseSettings = Static<typeof V2CaseSettingsSchema>;
export type V2Recipient = Static<typeof V2RecipientSchema>;
export type V2Document = Static<typeof V2DocumentSchema>;
