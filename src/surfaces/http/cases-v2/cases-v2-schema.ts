import { Type } from 'typebox';
import {
  V2CaseBodySchema,
  V2WrappedCaseBodySchema,
  V2_CASE_STATUSES,
} from '../../../service/cases/index.js';

/**
 * The v2 case endpoints' parameters and answers (spec 4.2, 2.3, 7.1), for the OpenAPI document
 * and the serializer. Answers are open where v2's objects are (a recipient echoes what it was
 * given, settings keep what v2 sent): the serializer would otherwise drop those members.
 */

const open = { additionalProperties: true } as const;

export const CompanyParamsSchema = Type.Object(
  { company: Type.String({ description: 'the company identifier; must be the key’s company' }) },
  { additionalProperties: false },
);

export const CaseIdParamsSchema = Type.Object(
  {
    company: Type.String({ description: 'the company identifier; must be the key’s company' }),
    case_id: Type.String({ description: 'a case id' }),
  },
  { additionalProperties: false },
);

export const CaseIdsParamsSchema = Type.Object(
  {
    company: Type.String({ description: 'the company identifier; must be the key’s company' }),
    case_ids: Type.String({ description: 'case ids, comma-separated' }),
  },
  { additionalProperties: false },
);

/** spec 4.2's list parameters; other parameters are ignored, as v2 did. */
export const V2ListQuerySchema = Type.Object(
  {
    status: Type.Optional(
      Type.Enum([...V2_CASE_STATUSES], {
        description: 'signed, denied, or pending (a draft or open case)',
      }),
    ),
    limit: Type.Optional(
      Type.String({ pattern: '^[0-9]+$', description: 'cases a page, 1 to 1000; default 100' }),
    ),
    index: Type.Optional(
      Type.String({ pattern: '^[0-9]+$', description: 'the page, from 0; default 0' }),
    ),
    folder: Type.Optional(Type.String({ description: 'a folder, by name or id' })),
  },
  open,
);

/** The create body: the v2 body, or the same wrapped in `values` (spec 9). */
export const V2CreateBodySchema = Type.Union([V2CaseBodySchema, V2WrappedCaseBodySchema]);

/** No query parameters: v2 ignored them (spec 9: the company may be given there; the path's counts). */
export const AnyQuerySchema = Type.Object({}, open);

const Notice = Type.Object(
  {
    code: Type.Optional(Type.String()),
    message: Type.String(),
    using: Type.Optional(Type.Array(Type.String())),
  },
  open,
);

const Settings = Type.Object({}, open);

const RecipientAnswer = Type.Object(
  {
    _id: Type.String(),
    uid: Type.String(),
    name: Type.String(),
    signed: Type.String({ description: 'the signing status: pending, signed or denied' }),
    signingToken: Type.Optional(
      Type.String({ description: 'the token of url, for an open case, in this answer only' }),
    ),
    type: Type.String({ description: 'email, phone or eboks' }),
    url: Type.Optional(
      Type.String({ format: 'uri', description: 'the signing link, for an open case' }),
    ),
  },
  open,
);

const DocumentAnswer = Type.Object(
  {
    _id: Type.String(),
    document_id: Type.String(),
    name: Type.String(),
    file: Type.String({ description: 'a signed download URL of the PDF, or the URL given' }),
  },
  open,
);

/** spec 2.3's `{data, notices}`. */
export const V2CaseCreatedSchema = Type.Object(
  {
    data: Type.Object(
      {
        _id: Type.String(),
        id: Type.String(),
        title: Type.String(),
        folder: Type.String(),
        folderId: Type.String(),
        type: Type.String(),
        user_email: Type.String(),
        user_company: Type.String(),
        serviceKey: Type.String({ description: 'the creating API key’s public id' }),
        signingSchemas: Type.Array(Type.String()),
        settings: Settings,
        recipients: Type.Array(RecipientAnswer),
        documents: Type.Array(DocumentAnswer),
        createdAt: Type.String({ format: 'date-time' }),
        updatedAt: Type.String({ format: 'date-time' }),
      },
      { additionalProperties: false },
    ),
    notices: Type.Array(Notice),
  },
  { additionalProperties: false },
);

const Summary = Type.Object(
  {
    _id: Type.String(),
    title: Type.String(),
    folder: Type.String(),
    type: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const V2CaseListSchema = Type.Object(
  { status: Type.String(), cases: Type.Array(Summary) },
  { additionalProperties: false },
);

export const V2MessageSchema = Type.Object(
  { message: Type.String() },
  { additionalProperties: false },
);

export const V2CaseOneSchema = Type.Union([
  Type.Object(
    {
      status: Type.String(),
      case: Type.Object(
        {
          _id: Type.String(),
          title: Type.String(),
          type: Type.String(),
          createdAt: Type.String({ format: 'date-time' }),
          updatedAt: Type.String({ format: 'date-time' }),
          settings: Settings,
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  V2MessageSchema,
]);

export const V2DeletedSchema = Type.Object(
  {
    status: Type.String(),
    return: Type.Object(
      { acknowledged: Type.Boolean(), deletedCount: Type.Integer() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/**
 * spec 7.1's error list envelope as these endpoints answer it: each problem one error object,
 * `error` the v3 slug it is (clients may branch on it), a 500 with `message` too.
 */
export const V2CaseErrorsSchema = Type.Object(
  {
    message: Type.Optional(Type.String()),
    errors: Type.Array(
      Type.Object(
        {
          code: Type.Integer(),
          message: Type.String(),
          description: Type.String(),
          error: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The company error (7.1's single-object shape): `Invalid company id`. */
export const V2ErrorObjectSchema = Type.Object(
  { code: Type.Integer(), message: Type.String(), description: Type.String() },
  { additionalProperties: false },
);
