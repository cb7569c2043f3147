import { Type } from 'typebox';
import { COMPANY_ID_MAX_CHARS } from '../../../service/tenancy/index.js';

/**
 * The schemas of the file endpoints (spec 4.3 and 2.4): one description per contract, used for
 * validation, for the types and for the OpenAPI document.
 */

export const FILE_TAGS = ['files'];

export const CompanyParams = Type.Object(
  {
    company: Type.String({
      minLength: 1,
      maxLength: COMPANY_ID_MAX_CHARS,
      description: "The company id; must be the key's company",
    }),
  },
  { additionalProperties: false },
);

const DocumentName = Type.String({
  minLength: 1,
  maxLength: 255,
  description: "The document's name: shown in downloads, never used as a path",
});
const DeclaredType = Type.String({
  maxLength: 255,
  description: 'Accepted for compatibility and not trusted: the bytes decide what a document is',
});

export const JsonUploadBody = Type.Object(
  {
    file: Type.String({ minLength: 1, description: "The document's bytes in base64" }),
    name: DocumentName,
    type: Type.Optional(DeclaredType),
  },
  { additionalProperties: false },
);

/**
 * A multipart upload as the route sees it once parsed: the file part stands as a placeholder
 * string (its bytes are kept apart), so that the same rules (required, no other members) hold.
 */
export const MultipartUploadBody = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'The document, as a file part' }),
    name: Type.Optional(DocumentName),
    type: Type.Optional(DeclaredType),
  },
  { additionalProperties: false },
);

export const StoredType = Type.Union([Type.Literal('pdf'), Type.Literal('docx')], {
  description: 'What the bytes are, as sniffed',
});

export const UploadResponse = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      description:
        'The stored document; a document source for convert, the queue and pre-signed URLs',
    }),
    type: StoredType,
  },
  { additionalProperties: false },
);

export const PresignBody = Type.Object(
  { url: Type.String({ format: 'uri', description: 'A stored document URL from an upload' }) },
  { additionalProperties: false },
);

export const PresignResponse = Type.Object(
  {
    key: Type.String({ description: 'The storage key of the document' }),
    signedUrl: Type.String({
      format: 'uri',
      description: 'Downloads the document until it expires',
    }),
    type: StoredType,
    cached: Type.Boolean({ description: 'True when a URL issued before, still valid, is reused' }),
  },
  { additionalProperties: false },
);

/** `{message}` (4.3), and the 7.1 company error `{code, message, description}` on the same status. */
export const FileError = Type.Object({
  message: Type.String(),
  code: Type.Optional(Type.Integer()),
  description: Type.Optional(Type.String()),
});

/** 401 from the authentication hook in front: the v2 error list envelope (spec 5, 7.1). */
export const V2ErrorList = Type.Object({
  errors: Type.Array(
    Type.Object({ code: Type.Integer(), message: Type.String(), description: Type.String() }),
  ),
});

export const DownloadParams = Type.Object({
  '*': Type.String({
    description: "The storage key, its slashes as they are: use a signed URL's path unchanged",
  }),
});

export const DownloadQuery = Type.Object({
  expires: Type.Optional(
    Type.String({ description: 'Unix time in seconds when the URL stops working' }),
  ),
  name: Type.Optional(
    Type.String({ description: 'The name the document downloads as, signed with the rest' }),
  ),
  signature: Type.Optional(Type.String({ description: 'HMAC-SHA256 of key, expiry and name' })),
});

export const BinaryDocument = Type.String({ format: 'binary' });
