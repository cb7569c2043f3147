import { Type, type Static } from 'typebox';
import { TagInputSchema } from '../../document/values/index.js';
import { MAX_TITLE_CHARS } from '../cases/index.js';
import { MAX_EMAIL_CHARS, MAX_NAME_CHARS } from '../companies/index.js';
import { FormSubmitBodySchema } from '../forms/index.js';

/** The most people one flow asks. */
export const MAX_WEBFLOW_RECIPIENTS = 50;
/** A flow runs at most a year; 30 days unless the request says otherwise. */
export const MAX_EXPIRES_IN_DAYS = 365;
export const DEFAULT_EXPIRES_IN_DAYS = 30;

const closed = { additionalProperties: false } as const;

/** A person asked: name and e-mail address, and the language of their e-mail and page. */
export const WebflowRecipientSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_NAME_CHARS }),
    email: Type.String({ format: 'email', maxLength: MAX_EMAIL_CHARS }),
    language: Type.Optional(
      Type.Union([Type.Literal('da'), Type.Literal('en')], {
        description: "the e-mail's and page's language; default the company's",
      }),
    ),
  },
  closed,
);

/** How long the flow runs and whether it reminds those who have not answered (as cases do). */
export const WebflowSettingsSchema = Type.Object(
  {
    expiresInDays: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_EXPIRES_IN_DAYS,
        description: `days until the flow expires; default ${DEFAULT_EXPIRES_IN_DAYS}`,
      }),
    ),
    reminders: Type.Optional(
      Type.Object(
        {
          send: Type.Optional(Type.Boolean()),
          amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
          daysBetween: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
        },
        closed,
      ),
    ),
  },
  closed,
);

/**
 * The `case` member: the signing case a completed flow makes from the same form, under the
 * form submit rules (spec 3). Its tags are the flow's answers, so it has none of its own.
 */
export const WebflowCaseSchema = Type.Omit(FormSubmitBodySchema, ['tags'], {
  description:
    'the signing case made from the form once every recipient has answered: the form submit body without tags (the answers are its tags)',
});

/**
 * The body of `POST /v3/api/webflows`, once for the check, the types and the OpenAPI document.
 * Closed, as v3 bodies are: an unknown member is refused, not dropped.
 */
export const WebflowBodySchema = Type.Object(
  {
    formId: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'a published (active) form with "webflow": true',
    }),
    title: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_TITLE_CHARS, description: "default the form's" }),
    ),
    message: Type.Optional(Type.String({ maxLength: 10_000, description: 'shown to recipients' })),
    senderId: Type.Optional(Type.String({ minLength: 1, description: "a member's id" })),
    senderEmail: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: MAX_EMAIL_CHARS,
        description: "a member's e-mail",
      }),
    ),
    recipients: Type.Array(WebflowRecipientSchema, {
      minItems: 1,
      maxItems: MAX_WEBFLOW_RECIPIENTS,
    }),
    tags: Type.Optional(
      Type.Array(TagInputSchema, {
        description:
          "values that prefill the form's questions (each a tag of the form, of its type); they count as unanswered",
      }),
    ),
    settings: Type.Optional(WebflowSettingsSchema),
    case: Type.Optional(WebflowCaseSchema),
  },
  closed,
);

export type WebflowBody = Static<typeof WebflowBodySchema>;
