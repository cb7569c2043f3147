import { Type } from 'typebox';
import { FORM_TAG_TYPES, FormSubmitBodySchema } from '../../../service/forms/index.js';

/**
 * The v2 form endpoints' parameters and answers (spec 4.1, 2.1, 7.1), for the OpenAPI document
 * and the serializer. Answers are open where v2's objects are (settings, preset recipients, a
 * recipient echoing what it was given): the serializer would otherwise drop those members.
 */

const open = { additionalProperties: true } as const;

export const FormParamsSchema = Type.Object(
  {
    company: Type.String({ description: 'the company identifier; must be the key’s company' }),
    form_id: Type.String({ description: 'the form id, as the company was given it' }),
  },
  { additionalProperties: false },
);

export const TagDefinitionSchema = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    tag: Type.String({ description: 'the tag as the templates write it' }),
    value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], {
      description: 'the default; null: none, so submit must send it',
    }),
    type: Type.Enum([...FORM_TAG_TYPES]),
  },
  { additionalProperties: false },
);

export const FormSchema = Type.Object(
  {
    _id: Type.String(),
    companyId: Type.String(),
    folder: Type.String({
      description: "a folder's name; the company's default when the form names none",
    }),
    active: Type.Boolean(),
    title: Type.String(),
    settings: Type.Object({}, open),
    tags: Type.Array(TagDefinitionSchema),
    recipients: Type.Array(Type.Object({}, open), {
      description: 'preset recipients, added after the submitted ones',
    }),
    documents: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          type: Type.Enum(['docx', 'pdf'], { description: 'docx: filled with the tags on submit' }),
          signObligated: Type.Optional(Type.Boolean()),
          documentMustBeRead: Type.Optional(Type.Boolean()),
          signatories: Type.Optional(Type.Array(Type.Unknown())),
        },
        { additionalProperties: false },
      ),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const TagListSchema = Type.Array(TagDefinitionSchema);

export { FormSubmitBodySchema };

const ContractRecipient = Type.Object(
  {
    _id: Type.String(),
    uid: Type.String(),
    signed: Type.String({ description: 'pending, signed or denied' }),
    type: Type.String(),
    url: Type.Optional(Type.String({ description: 'the signing link; an open case only' })),
    redirectUrl: Type.Optional(Type.String({ description: 'as submitted' })),
  },
  open,
);

export const SubmitReplySchema = Type.Object(
  {
    status: Type.Literal('OK'),
    message: Type.Enum(['Contract created and sent', 'Contract created']),
    contract: Type.Object(
      {
        _id: Type.String(),
        title: Type.String(),
        folder: Type.String(),
        type: Type.String(),
        state: Type.Optional(Type.Literal('draft')),
        createdAt: Type.String({ format: 'date-time' }),
        updatedAt: Type.String({ format: 'date-time' }),
        recipients: Type.Array(ContractRecipient),
        documents: Type.Array(Type.Object({ name: Type.String(), file: Type.String() }, open)),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const V2ErrorObject = Type.Object(
  {
    code: Type.Integer(),
    message: Type.String(),
    description: Type.String(),
    error: Type.Optional(Type.String({ description: 'the failure slug (spec 7.2)' })),
  },
  { additionalProperties: false },
);

/** 7.1's `{code, message, description}`: `Form not found`, `Invalid company id`. */
export const V2ErrorObjectSchema = V2ErrorObject;

/** 7.1's error list envelope: `errors` (objects, or strings as in `No ID provided`), `message`. */
export const V2ErrorListSchema = Type.Object(
  {
    message: Type.Optional(Type.String()),
    errors: Type.Array(Type.Union([V2ErrorObject, Type.String()])),
  },
  { additionalProperties: false },
);
