import type { Kysely } from 'kysely';
import { DocpipeError, type FailureSlug } from '../../base/errors/index.js';
import { didYouMean } from '../../base/util/index.js';
import {
  CompanyRepository,
  FolderRepository,
  MessageTemplateRepository,
  PresetRepository,
  SIGNING_SCHEMAS,
  type Company,
  type Folder,
  type User,
} from '../companies/index.js';
import type { Database } from '../db/index.js';
import type { ServiceNotice } from './case-answer.js';
import type { CaseInput, CaseSettingsInput } from './case-input.js';
import { DRAW_SCHEME } from './case-defaults.js';
import { chooseSender } from './sender-choice.js';
import { logoProblem } from './signing-logo.js';

/** One problem of rule 2, with the slug it answers with. */
interface Problem {
  slug: FailureSlug;
  field: string;
  message: string;
}

/** What rule 2 found the body's references to be, and the notices they earned. */
export interface ResolvedReferences {
  company: Company;
  folder: Folder;
  sender: User;
  /** The preset's settings beneath the body's. */
  settings: CaseSettingsInput;
  signingSchemas: string[];
  notices: ServiceNotice[];
}

export interface ReferenceContext {
  company: string;
  /** The creating key's user, when it has one. */
  keyUserId?: string;
  publicUrl: string;
  /** eID schemes with a broker on this installation. */
  eidSchemes: readonly string[];
  /** v2 (spec 9): a folder the company lacks files the case in its default folder instead. */
  unknownFolderToDefault?: boolean;
  /**
   * v2 (spec 9): a `senderEmail` no member has leaves the key's user as the sender (with the
   * notice) instead of `sender-user-not-found`.
   */
  unknownSenderEmailToKeyUser?: boolean;
}

/**
 * spec 4.4's checks that need sound structure (rule 2 of the issue's order), all of them, every
 * problem at once with its path: an open case has recipients and documents; the folder, the
 * preset, every message template and the sender exist in the company; the signing schemes are
 * known and served; the logo is a PNG, a JPEG or this service's URL; the return path begins
 * with `/`; an sms recipient has a phone. The answer's slug is the first problem's, in that
 * order; its details are every problem's. A key with no user and no sender named is refused
 * at once (`key-has-no-user`): there is nobody to attribute the case to.
 */
export async function resolveReferences(
  db: Kysely<Database>,
  body: CaseInput,
  context: ReferenceContext,
): Promise<ResolvedReferences> {
  const problems: Problem[] = [];
  const notices: ServiceNotice[] = [];
  const { company: companyId } = context;
  const open = body.state !== 'draft';
  if (open && (body.recipients ?? []).length === 0)
    problems.push({
      slug: 'validation-failed',
      field: 'recipients',
      message: 'an open case needs at least one recipient (or send state "draft")',
    });
  if (open && (body.documents ?? []).length === 0)
    problems.push({
      slug: 'validation-failed',
      field: 'documents',
      message: 'an open case needs at least one document (or send state "draft")',
    });

  const company = await new CompanyRepository(db).find(companyId);
  // The key was verified a moment ago: its company is there unless removed since.
  if (!company) throw new Error(`company ${companyId} does not exist`);

  const folders = new FolderRepository(db);
  let folder: Folder | undefined;
  if (body.folder === undefined) folder = await folders.defaultFolder(companyId);
  else {
    folder = await folders.find(companyId, body.folder);
    if (!folder && context.unknownFolderToDefault) folder = await folders.defaultFolder(companyId);
    else if (!folder)
      problems.push({
        slug: 'invalid-folder',
        field: 'folder',
        message: unknownFolder(body.folder, await folders.list(companyId)),
      });
  }

  let presetSettings: CaseSettingsInput = {};
  if (body.presetId !== undefined) {
    const preset = await new PresetRepository(db).find(companyId, body.presetId);
    if (preset) presetSettings = preset.settings;
    else
      problems.push({
        slug: 'preset-not-found',
        field: 'presetId',
        message: `no preset ${JSON.stringify(body.presetId)} in the company`,
      });
  }

  const templates = new MessageTemplateRepository(db);
  const templateRefs: { field: string; id: string }[] = [];
  if (body.messageTemplateId !== undefined)
    templateRefs.push({ field: 'messageTemplateId', id: body.messageTemplateId });
  for (const [i, r] of (body.recipients ?? []).entries())
    if (r.messageTemplateId !== undefined)
      templateRefs.push({ field: `recipients[${i}].messageTemplateId`, id: r.messageTemplateId });
  for (const ref of templateRefs)
    if (!(await templates.find(companyId, ref.id)))
      problems.push({
        slug: 'message-template-not-found',
        field: ref.field,
        message: `no message template ${JSON.stringify(ref.id)} in the company`,
      });

  const sender = await resolveSender(db, body, context, problems, notices);

  const settings = mergeSettings(presetSettings, body.settings ?? {});
  const signingSchemas = schemeChoice(body, settings, context, problems, notices);

  if (settings.logo !== undefined) {
    const problem = logoProblem(settings.logo, [context.publicUrl, company.signingDomain]);
    if (problem)
      problems.push({
        slug: 'invalid-signing-page-logo',
        field: 'settings.logo',
        message: problem,
      });
  }

  const returnPath = settings.integrations?.microsoft?.returnPath;
  if (returnPath !== undefined) {
    if (!returnPath.startsWith('/'))
      problems.push({
        slug: 'validation-failed',
        field: 'settings.integrations.microsoft.returnPath',
        message: `must begin with "/" (got ${JSON.stringify(returnPath)})`,
      });
    else
      notices.push({
        code: 'no-sharepoint-integration',
        message:
          'settings.integrations.microsoft.returnPath was ignored: this installation has no SharePoint integration',
      });
  }

  for (const [i, r] of (body.recipients ?? []).entries()) {
    const type = r.type ?? 'email';
    if (type === 'sms' && !r.phone)
      problems.push({
        slug: 'validation-failed',
        field: `recipients[${i}].phone`,
        message: 'an sms recipient needs a phone number',
      });
    if (type === 'email' && !r.email)
      problems.push({
        slug: 'validation-failed',
        field: `recipients[${i}].email`,
        message: 'an e-mail recipient needs an e-mail address (or type "sms" with a phone)',
      });
  }

  if (problems.length > 0)
    throw new DocpipeError(
      problems[0]!.slug,
      problems.map(({ field, message }) => ({ field, message })),
    );
  return { company, folder: folder!, sender: sender!, settings, signingSchemas, notices };
}

/** senderId, senderEmail, or the key's own user (with the notice spec 4.4 rule 6 asks for). */
async function resolveSender(
  db: Kysely<Database>,
  body: CaseInput,
  context: ReferenceContext,
  problems: Problem[],
  notices: ServiceNotice[],
): Promise<User | undefined> {
  const choice = await chooseSender(db, context.company, body, context.keyUserId, {
    what: 'the case',
    ...(context.unknownSenderEmailToKeyUser ? { unknownEmailToKeyUser: true } : {}),
  });
  for (const p of choice.problems) problems.push({ slug: 'sender-user-not-found', ...p });
  if (choice.keyless)
    throw new DocpipeError('key-has-no-user', [
      {
        field: 'senderEmail',
        message:
          'the API key belongs to no user, so the case has no sender: send senderId or senderEmail, or use a key made with --user',
      },
    ]);
  if (choice.notice) notices.push(choice.notice);
  return choice.sender;
}

/**
 * The signing schemes: those given (each known, and served here: an eID scheme needs its
 * broker), else the standard set this installation serves, or `draw` where it serves none.
 * Recipient-level `signingSchema` values are held to the same rule.
 */
function schemeChoice(
  body: CaseInput,
  settings: CaseSettingsInput,
  context: ReferenceContext,
  problems: Problem[],
  notices: ServiceNotice[],
): string[] {
  const served = new Set([DRAW_SCHEME, ...context.eidSchemes]);
  const check = (scheme: string, field: string) => {
    if (!(SIGNING_SCHEMAS as readonly string[]).includes(scheme))
      problems.push({
        slug: 'validation-failed',
        field,
        message: `unknown signing scheme ${JSON.stringify(scheme)} (known: ${SIGNING_SCHEMAS.join(', ')})`,
      });
    else if (!served.has(scheme))
      problems.push({
        slug: 'validation-failed',
        field,
        message: `${scheme} needs an eID broker, and this installation has none configured for it: use ${[...served].join(', ')}`,
      });
  };
  for (const [i, r] of (body.recipients ?? []).entries())
    if (r.signingSchema !== undefined) check(r.signingSchema, `recipients[${i}].signingSchema`);
  if (settings.signingSchemas !== undefined) {
    for (const [i, s] of settings.signingSchemas.entries())
      check(s, `settings.signingSchemas[${i}]`);
    return [...settings.signingSchemas];
  }
  // The standard schemes that have a broker, in the spec's order, whatever order they came in.
  const standard = SIGNING_SCHEMAS.filter((s) => s !== DRAW_SCHEME && served.has(s));
  const using = standard.length > 0 ? [...standard] : [DRAW_SCHEME];
  notices.push({
    code: 'default-signing-schemas',
    message: `no settings.signingSchemas were given: the case uses ${using.join(', ')}`,
    using,
  });
  return using;
}

/** A preset's settings beneath the body's: the body wins member by member, nested ones too. */
function mergeSettings(preset: CaseSettingsInput, body: CaseSettingsInput): CaseSettingsInput {
  const merged = { ...preset, ...body };
  if (preset.reminders || body.reminders)
    merged.reminders = { ...preset.reminders, ...body.reminders };
  const microsoft = { ...preset.integrations?.microsoft, ...body.integrations?.microsoft };
  if (preset.integrations || body.integrations) merged.integrations = { microsoft };
  return merged;
}

/** Folders named in a refusal, at most: a company with hundreds gets the nearest and a count. */
const SHOWN_FOLDERS = 10;

/**
 * The refusal of a folder the company lacks, with what the caller can send instead: the
 * nearest name, and the company's folders (the caller's own, so naming them tells nothing to
 * anyone else), rather than an operator's command the caller cannot run.
 */
function unknownFolder(given: string, folders: readonly Folder[]): string {
  const names = folders.map((f) => f.name);
  const shown = names.slice(0, SHOWN_FOLDERS).map((n) => JSON.stringify(n));
  const more = names.length > SHOWN_FOLDERS ? ` and ${names.length - SHOWN_FOLDERS} more` : '';
  return (
    `no folder with the name or id ${JSON.stringify(given)} in the company${didYouMean(given, names)}; ` +
    `send one of its folders (${shown.join(', ')}${more}) by name or id, or leave folder out for the default one`
  );
}
