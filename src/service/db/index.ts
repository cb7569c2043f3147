export type {
  ApiKeysTable,
  CaseDocumentsTable,
  CaseEventsTable,
  CaseSource,
  CasesTable,
  CompaniesTable,
  Database,
  FoldersTable,
  FormsTable,
  MessageTemplatesTable,
  PresetsTable,
  RecipientsTable,
  UsersTable,
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
