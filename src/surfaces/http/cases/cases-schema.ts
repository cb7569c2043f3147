import { Type } from 'typebox';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../../service/cases/index.js';

/**
 * The answers and parameters of the v3 case endpoints (spec 2.2, 4.4). The request body is the
 * service's (`CaseBodySchema`, src/service/cases/case-body.ts): one contract for the route, the
 * types and this document. Every answer is a closed object: the serializer writes only what is
 * listed, so a member spec 2.2 removed (`signingToken`, `serviceKey`, `cpr`) cannot leak even if
 * something upstream carried it.
 */

const Notice = Type.Object(
  {
    code: Type.String({ description: 'a notice code of spec 7.3' }),
    message: Type.String(),
    using: Type.Optional(
      Type.Array(Type.String(), { description: 'default-signing-schemas: the schemes used' }),
    ),
    field: Type.Optional(
      Type.String({
        description:
          "a document's notice: the document or value it is about (documents[1], documents[1].tags.tenant_name)",
      }),
    ),
    characters: Type.Optional(
      Type.Array(Type.String(), {
        description: 'characters-not-drawn: the characters no installed font has',
      }),
    ),
    font: Type.Optional(Type.String({ description: 'font-substituted: the font asked for' })),
    replacement: Type.Optional(Type.String({ description: 'font-substituted: the font used' })),
    metricCompatible: Type.Optional(
      Type.Boolean({ description: 'font-substituted: whether the widths are the same' }),
    ),
    fonts: Type.Optional(
      Type.Array(Type.String(), { description: 'embedded-fonts-ignored: the families' }),
    ),
    page: Type.Optional(Type.Integer({ description: 'empty-page: the page, from 1' })),
  },
  { additionalProperties: false },
);

const Channel = Type.Object(
  {
    ok: Type.Boolean({
      description:
        'false only when something was to go over the channel and did not, or is not known to have gone yet; a channel with nothing to send is ok',
    }),
    attempted: Type.Boolean({
      description: 'whether anything was sent or tried over the channel',
    }),
    error: Type.Optional(Type.String({ description: 'why, when ok is false' })),
    reason: Type.Optional(
      Type.String({
        description:
          'why nothing was tried, when attempted is false: no recipient of the case is reached by the channel, no webhook receives the event, the case is a draft',
      }),
    ),
    location: Type.Optional(
      Type.String({
        description:
          'where the message went, when ok: the .eml file (or folder) written without SMTP, the SMTP Message-ID, the SMS gateway id',
      }),
    ),
  },
  { additionalProperties: false },
);

const RecipientStatus = Type.Enum(['pending', 'signed', 'denied'], {
  description: "the recipient's signing status",
});

const CaseState = Type.Enum(['draft', 'open', 'signed', 'denied', 'expired']);

const ActiveGroup = Type.Union([Type.Integer(), Type.Null()], {
  description: 'the lowest group with pending signers (only it can sign); null when nobody has to',
});

/** 201: spec 2.2's `case`, member for member. */
/** spec 2.2's `delivery`: the first attempt over each channel. */
const Delivery = Type.Object(
  {
    attempted: Type.Boolean(),
    email: Channel,
    eboks: Channel,
    sms: Channel,
    webhook: Channel,
  },
  { additionalProperties: false },
);

/** `POST /v3/api/cases/{id}/send`: the draft now open, and its first delivery. */
export const CaseSentSchema = Type.Object(
  {
    case: Type.Object(
      {
        id: Type.String(),
        state: Type.Literal('open'),
        activeGroup: ActiveGroup,
        delivery: Delivery,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const CaseCreatedSchema = Type.Object(
  {
    case: Type.Object(
      {
        id: Type.String(),
        recipients: Type.Array(
          Type.Object(
            {
              id: Type.String(),
              uid: Type.String({ description: 'the recipient handle' }),
              signingUrl: Type.String({ format: 'uri', description: "the recipient's link" }),
              status: RecipientStatus,
            },
            { additionalProperties: false },
          ),
        ),
        documents: Type.Array(
          Type.Object(
            { url: Type.String({ format: 'uri', description: 'a signed download URL' }) },
            { additionalProperties: false },
          ),
        ),
        activeGroup: ActiveGroup,
        delivery: Delivery,
        notices: Type.Optional(Type.Array(Notice)),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Union([t, Type.Null()]);

const Folder = Type.Object(
  { id: Type.String(), name: Type.String() },
  { additionalProperties: false },
);

const Summary = {
  id: Type.String(),
  title: Type.String(),
  state: CaseState,
  referenceId: Nullable(Type.String()),
  folder: Folder,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

/** 200 of GET /v3/api/cases/{id}: the spec leaves it open; this is the case as it stands. */
export const CaseOneSchema = Type.Object(
  {
    case: Type.Object(
      {
        ...Summary,
        sender: Nullable(
          Type.Object(
            { id: Nullable(Type.String()), name: Type.String(), email: Type.String() },
            { additionalProperties: false },
          ),
        ),
        language: Type.String(),
        activeGroup: ActiveGroup,
        sealing: Type.Boolean({
          description:
            'every signer has signed and the documents are being sealed: the case stays open until its sealed PDFs are stored, then it is signed and documents[].url downloads them',
        }),
        expiresAt: Type.String({ format: 'date-time' }),
        settings: Type.Record(Type.String(), Type.Unknown(), {
          description: 'the settings the case was created with, after its preset',
        }),
        recipients: Type.Array(
          Type.Object(
            {
              id: Type.String(),
              uid: Type.String(),
              name: Type.String(),
              email: Nullable(Type.String()),
              phone: Nullable(Type.String()),
              type: Type.String(),
              signing: Type.Boolean(),
              group: Type.Integer(),
              status: RecipientStatus,
              actedAt: Type.Optional(
                Type.String({ format: 'date-time', description: 'when they signed or denied' }),
              ),
              method: Type.Optional(
                Type.String({
                  description: 'how a recipient who signed signed: draw, typed or the eID scheme',
                }),
              ),
              denialReason: Type.Optional(
                Type.String({ description: 'the reason given by a recipient who denied' }),
              ),
              ip: Type.Optional(
                Type.String({
                  description: 'the address a recipient who signed or denied acted from',
                }),
              ),
            },
            { additionalProperties: false },
          ),
        ),
        documents: Type.Array(
          Type.Object(
            {
              name: Type.String(),
              url: Type.String({
                description: 'a signed download URL, or the URL the document was given by',
              }),
              source: Type.Enum(['content', 'url', 'library']),
              pages: Nullable(
                Type.Integer({
                  description:
                    'pages of the file at url: once sealed, with the signature page and audit trail added',
                }),
              ),
              shownPages: Nullable(
                Type.Integer({
                  description: 'pages of the document as the signers read it, before sealing',
                }),
              ),
              sha256: Nullable(Type.String()),
              sealed: Type.Boolean({
                description:
                  'url and sha256 are the sealed PDF (signatures, audit trail, PAdES seal); false until the case is signed, and for a document given by URL',
              }),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** 200 of GET /v3/api/cases: a page, newest first, and where the next one starts. */
export const CaseListSchema = Type.Object(
  {
    cases: Type.Array(Type.Object(Summary, { additionalProperties: false })),
    nextCursor: Type.Optional(
      Type.String({ description: 'pass as cursor for the next page; absent on the last page' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * GET /v3/api/cases's parameters. Query values arrive as text (the server does not coerce), so
 * `limit` is digits and `createdAfter` is parsed by the route: either way a bad one is refused
 * with the parameter's name as its field, and an unknown parameter is `unknown field` (7.2).
 */
export const CaseListQuerySchema = Type.Object(
  {
    state: Type.Optional(CaseState),
    folder: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'a folder name or id' }),
    ),
    referenceId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    createdAfter: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'ISO 8601 date (2026-05-01, midnight UTC) or date-time with its offset (2026-05-01T12:00:00Z, 2026-05-01T14:00+02:00): cases created at or after it',
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: "the previous page's nextCursor",
      }),
    ),
    limit: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,4}$',
        description: `cases per page, 1 to ${MAX_PAGE_LIMIT}; default ${DEFAULT_PAGE_LIMIT}`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const CaseParamsSchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const DocumentParamsSchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200, description: 'a library document id' }) },
  { additionalProperties: false },
);
