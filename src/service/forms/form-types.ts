import type { V2CaseSettings, V2Recipient } from '../cases/index.js';

/**
 * The types a TagDefinition may have: a TagInput's scalar types. A `list` needs its columns
 * described, which a TagDefinition (spec 2.1) cannot do, so a form's tags are scalars.
 */
export const FORM_TAG_TYPES = ['text', 'number', 'date', 'boolean'] as const;
export type FormTagType = (typeof FORM_TAG_TYPES)[number];

/**
 * What a text question asks for, beyond text (issue 36): a web-flow's page offers the matching
 * field and checks the answer's form. form.json writes one as the tag's `type` (`"type":
 * "email"`); the TagDefinition keeps `type` `text` and the kind beside it, so that a case's
 * templates are still filled with the answer as text and the pipeline's TagInputs need no new
 * type.
 */
export const QUESTION_KINDS = ['email', 'phone', 'cpr'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** The types form.json's `type` may name: the TagInput types and the question kinds. */
export const FORM_FILE_TAG_TYPES = [...FORM_TAG_TYPES, ...QUESTION_KINDS] as const;

/** The most choices a question may offer, and the longest a choice may be. */
export const MAX_CHOICES = 100;
export const MAX_CHOICE_CHARS = 200;

/** spec 2.1's TagDefinition: a tag of the form's templates, with its type and default. */
export interface TagDefinition {
  /** The tag's identifier; form.json's, else the tag itself. */
  _id: string;
  /** Its human-readable name; the tag itself when form.json gives none. */
  name: string;
  /** The tag as the templates write it. */
  tag: string;
  /** The default value: what the case gets when submit sends none; null: none. */
  value: string | number | boolean | null;
  type: FormTagType;
  /** A text tag that asks for an e-mail, a phone or a CPR number (form.json's `type`); absent: none. */
  kind?: QuestionKind;
  /** The answers a text tag allows, in the order offered (a web-flow's list of choices). */
  choices?: string[];
}

/** The v2 flags of a case document that a form's document may carry (spec 2.1). */
export interface FormDocumentFlags {
  signObligated?: boolean;
  documentMustBeRead?: boolean;
  signatories?: unknown[];
}

/** A form's document as the row keeps it: where its template is, and what it is. */
export interface StoredFormDocument extends FormDocumentFlags {
  name: string;
  /** The template's storage key (never answered). */
  storageKey: string;
  /** `docx`, filled with the tags on submit, or `pdf`, taken as it is. */
  kind: 'docx' | 'pdf';
  sha256: string;
  bytes: number;
  /** The file form.json named, relative to the form's folder (for `forms list` and errors). */
  file: string;
}

/** A form as the service works with it. */
export interface FormRecord {
  company: string;
  id: string;
  title: string;
  /** A folder of the company, by name; null: the default folder. */
  folder: string | null;
  active: boolean;
  /** Whether it can start web-flows (form.json's `webflow`); a flow also needs `active`. */
  webflow: boolean;
  settings: V2CaseSettings;
  tags: TagDefinition[];
  recipients: V2Recipient[];
  documents: StoredFormDocument[];
  createdAt: Date;
  updatedAt: Date;
}

/** spec 2.1's Form, as GET .../forms/{form_id}/get answers it: no storage internals. */
export interface FormView {
  _id: string;
  companyId: string;
  /** The folder's name; the company's default folder when the form names none. */
  folder: string;
  active: boolean;
  title: string;
  settings: V2CaseSettings;
  tags: TagDefinition[];
  recipients: V2Recipient[];
  documents: ({ name: string; type: 'docx' | 'pdf' } & FormDocumentFlags)[];
  createdAt: string;
  updatedAt: string;
}
