/**
 * The records a company owns apart from cases and keys: the company itself, its users, folders,
 * presets and message templates, in PostgreSQL. Typed repositories, every query scoped by the
 * company; typed errors (exists, not found, invalid with each problem's path) that the CLI and
 * the HTTP surfaces turn into their messages. docs/companies.md describes each record.
 */
export {
  CompanyRepository,
  type CompanyLogo,
  type CompanySettings,
  type DisabledOutcome,
  type NewCompany,
} from './company-repository.js';
export { UserRepository, type KeepAnAdmin, type NewUser } from './user-repository.js';
export { LastAdminError } from './last-admin-error.js';
export { FolderNotEmptyError } from './folder-not-empty-error.js';
export {
  MAX_COMPANY_LOGO_BYTES,
  logoTypeOf,
  type LogoProblem,
  type LogoType,
} from './company-logo.js';
export {
  CASE_STATES,
  CompanyOverview,
  DETAIL_ROWS,
  RECENT_DAYS,
  type CompanyDetail,
  type CompanyListRequest,
  type CompanyPage,
  type CompanySummary,
  type KeySummary,
  type MemberSummary,
} from './company-overview.js';
export { DEFAULT_FOLDER_NAME, FolderRepository } from './folder-repository.js';
export { PresetRepository, parsePreset, type NewPreset } from './preset-repository.js';
export { CASE_SETTINGS, SIGNING_SCHEMAS, presetSettingsProblems } from './preset-settings.js';
export {
  MessageTemplateRepository,
  parseMessageTemplate,
  type NewMessageTemplate,
} from './message-template-repository.js';
export {
  MESSAGE_PLACEHOLDERS,
  fillPlaceholders,
  placeholderProblems,
  placeholdersIn,
  type MessagePlaceholder,
  type PlaceholderUse,
} from './message-placeholders.js';
export {
  RecordExistsError,
  RecordInvalidError,
  RecordNotFoundError,
  refuseProblems,
  type RecordKind,
  type RecordProblem,
} from './record-errors.js';
export { MAX_EMAIL_CHARS, MAX_NAME_CHARS, RECORD_ID } from './record-fields.js';
export type { Company, CompanyMember, Folder, MessageTemplate, Preset, User } from './records.js';
