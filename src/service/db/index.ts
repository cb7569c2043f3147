export type {
  ApiKeysTable,
  CaseDocumentsTable,
  CaseEventsTable,
  CaseSource,
  CasesTable,
  CompaniesTable,
  CreditLineKind,
  CreditPurchasesTable,
  Database,
  FoldersTable,
  FormsTable,
  MessageTemplatesTable,
  PaymentMethod,
  PresetsTable,
  RecipientsTable,
  UsersTable,
  WebflowRecipientStatus,
  WebflowState,
  WebflowsTable,
} from './schema.js';
export { MIGRATIONS } from './migrations.js';
export {
  MIGRATION_LOCK_KEY,
  MIGRATION_TABLE,
  MigrationError,
  migrateDatabase,
  migrationStatus,
  type AppliedMigration,
  type MigrationOutcome,
  type MigrationStatus,
} from './migrate.js';
export { MAX_BIND_PARAMETERS, rowBatches } from './row-batches.js';
export {
  decodeKeysetCursor,
  keysetCursorAt,
  keysetPage,
  olderThanCursor,
  type KeysetCursor,
} from './keyset-cursor.js';
