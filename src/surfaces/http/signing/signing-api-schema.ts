import { Type } from 'typebox';

/** The signature image is at most this many bytes (base64 in the body is a third more). */
export const MAX_SIGNATURE_IMAGE_BYTES = 512 * 1024;
/** A pad on a wide screen at a device pixel ratio of 2 is about 1400 x 500. */
export const MAX_SIGNATURE_WIDTH = 1600;
export const MAX_SIGNATURE_HEIGHT = 800;
export const MAX_SIGNATURE_PIXELS = MAX_SIGNATURE_WIDTH * MAX_SIGNATURE_HEIGHT;
/** The sign body: the image as base64 and a little JSON around it. */
export const SIGN_BODY_LIMIT = Math.ceil((MAX_SIGNATURE_IMAGE_BYTES * 4) / 3) + 16 * 1024;
export const MAX_TYPED_NAME_CHARS = 200;

export const SigningToken = Type.String({
  maxLength: 128,
  description: 'the token of the recipient’s signing link (its only credential)',
});

const Rect = Type.Object({
  x: Type.Number(),
  y: Type.Number(),
  width: Type.Number(),
  height: Type.Number(),
});

export const PlaceSchema = Type.Object(
  {
    kind: Type.Union([
      Type.Literal('sign'),
      Type.Literal('initials'),
      Type.Literal('name'),
      Type.Literal('date'),
    ]),
    recipient: Type.Integer({ description: 'the recipient’s position in the case, from 1' }),
    page: Type.Integer({ description: 'from 1' }),
    rect: Rect,
  },
  {
    description:
      'Where the recipient’s mark goes: PDF points (1/72 inch), origin at the lower-left corner of the page, y upwards',
  },
);

export const SessionSchema = Type.Object({
  case: Type.Object({
    title: Type.String(),
    language: Type.String(),
    sender: Type.Object({ name: Type.String(), email: Type.String() }),
    message: Type.Union([Type.String(), Type.Null()], {
      description:
        'settings.message: the sender’s words to every recipient, as the invitation has them; plain text (show it as text, line breaks kept)',
    }),
    expiresAt: Type.String({ format: 'date-time' }),
    expiresOn: Type.String({
      description:
        'the day the case expires, written in the case’s language as the e-mails write it (`31. december 2026`, `31 December 2026`), in the installation’s zone',
    }),
    logo: Type.Union([Type.String(), Type.Null()], { description: 'a same-origin URL' }),
  }),
  recipient: Type.Object({
    name: Type.String(),
    number: Type.Integer(),
    group: Type.Integer(),
    signing: Type.Boolean(),
    methods: Type.Array(Type.String(), {
      description: '`draw` (a drawn signature or the typed name) and/or eID schemes',
    }),
    needsCpr: Type.Boolean(),
    message: Type.Union([Type.String(), Type.Null()], {
      description: 'the recipient’s own message, when the case gave one; plain text',
    }),
  }),
  mayAct: Type.Boolean({ description: 'the recipient may sign now (their group is active)' }),
  waitingFor: Type.Array(Type.String(), {
    description: 'who the case waits for, when it is not this recipient’s turn',
  }),
  documents: Type.Array(
    Type.Object({
      index: Type.Integer(),
      name: Type.String(),
      pages: Type.Union([Type.Integer(), Type.Null()]),
      mustBeRead: Type.Boolean(),
      url: Type.Union([Type.String(), Type.Null()], {
        description: 'a document kept only as a link',
      }),
      pageImages: Type.Array(Type.String()),
      places: Type.Array(PlaceSchema),
    }),
  ),
  csrfToken: Type.String({ description: 'send it back in X-CSRF-Token on sign and deny' }),
  eidStart: Type.Union([Type.String(), Type.Null()], {
    description: 'GET `${eidStart}?scheme=<scheme>` starts an eID login; null: no eID method',
  }),
});

const DocumentsRead = Type.Optional(
  Type.Array(Type.Integer({ minimum: 0, maximum: 9999 }), {
    maxItems: 1000,
    description: 'the documents paged through to their end; every mustBeRead one must be here',
  }),
);

export const SignBodySchema = Type.Union([
  Type.Object(
    {
      method: Type.Literal('draw'),
      image: Type.String({
        maxLength: Math.ceil((MAX_SIGNATURE_IMAGE_BYTES * 4) / 3) + 64,
        description: `the drawn signature: base64 of a PNG, at most ${MAX_SIGNATURE_WIDTH}x${MAX_SIGNATURE_HEIGHT} pixels and ${MAX_SIGNATURE_IMAGE_BYTES} bytes (a data: URL prefix is accepted)`,
      }),
      documentsRead: DocumentsRead,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      method: Type.Literal('typed'),
      name: Type.String({
        maxLength: MAX_TYPED_NAME_CHARS,
        description: 'the typed name, instead of a drawing',
      }),
      documentsRead: DocumentsRead,
    },
    { additionalProperties: false },
  ),
]);

export const DenyBodySchema = Type.Object(
  { reason: Type.String({ maxLength: 10_000 }) },
  { additionalProperties: false },
);

export const SigningErrorSchema = Type.Object({
  error: Type.String(),
  message: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  waitingFor: Type.Optional(Type.Array(Type.String())),
});
