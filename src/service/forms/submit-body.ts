import { Type, type Static } from 'typebox';
import { TagInputSchema } from '../../document/values/index.js';
import {
  MAX_REFERENCE_CHARS,
  MAX_TITLE_CHARS,
  V2CaseSettingsSchema,
  V2RecipientSchema,
} from '../cases/index.js';
import { MAX_EMAIL_CHARS, MAX_NAME_CHARS } from '../companies/index.js';

const open = { additionalProperties: true } as const;

/** The states a submit may ask for (spec 3): `open` (also when omitted) or `draft`. */
export const SUBMIT_STATES = ['open', 'draft'] as const;

/**
 * The body of `POST /api/v2/{company}/forms/{form_id}/submit` (spec 4.1), once for the check,
 * the types and the OpenAPI document. Open objects, as v2's are (members it does not know are
 * ignored); TagInputs are closed, as everywhere (a misspelt `fromat` would render a wrong
 * document). A recipient's `cpr` is taken here, and only here: it is stored encrypted.
 */
export const FormSubmitBodySchema = Type.Object(
  {
    title: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_TITLE_CHARS,
        description: "overrides the form's title",
      }),
    ),
    customMessage: Type.Optional(Type.Boolean()),
    message: Type.Optional(Type.String({ maxLength: 10_000, description: 'shown to recipients' })),
    user_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_NAME_CHARS, description: 'sender name' }),
    ),
    user_email: Type.Optional(
      Type.String({ format: 'email', maxLength: MAX_EMAIL_CHARS, description: 'sender e-mail' }),
    ),
    state: Type.Optional(
      Type.String({ description: 'omit or `open` for a case sent at once; `draft` for a draft' }),
    ),
    autoSend: Type.Optional(
      Type.Boolean({ description: 'default true; default false when state is draft' }),
    ),
    signingSchemas: Type.Optional(Type.Array(Type.String())),
    settings: Type.Optional(V2CaseSettingsSchema),
    folder: Type.Optional(
      Type.String({ minLength: 1, description: "destination folder; default the form's" }),
    ),
    referenceId: Type.Optional(Type.String({ maxLength: MAX_REFERENCE_CHARS })),
    tags: Type.Array(TagInputSchema, {
      description: "values of the form's tags; a tag not sent takes the form's default",
    }),
    recipients: Type.Array(V2RecipientSchema, {
      description: 'if needsCpr is true, cpr is required (10 digits, or 6, a dash and 4)',
    }),
  },
  open,
);

export type FormSubmitBody = Static<typeof FormSubmitBodySchema>;
