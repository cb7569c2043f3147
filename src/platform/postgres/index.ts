export {
  EmbeddedPostgres,
  EMBEDDED_ROLE,
  type EmbeddedPostgresOptions,
} from './embedded-postgres.js';
export { findPostgresBinaries, type PostgresBinaries } from './postgres-binaries.js';
export { POSTGRES_SYSTEM_USER, serverUser, type ServerUser } from './server-user.js';
export { ROOT_CLUSTERS_DIR, type ClusterPlace } from './cluster-place.js';
export { CLUSTER_OWNER_FILE, readClusterOwner, type ClusterOwner } from './cluster-owner.js';
export {
  cleanClusters,
  listClusters,
  type CleanOptions,
  type CleanOutcome,
  type ClusterState,
  type EmbeddedCluster,
} from './embedded-clusters.js';
export { MAX_SOCKET_PATH_BYTES, checkSocketPath } from './socket-path.js';
export {
  databaseUrlFile,
  NoDatabaseError,
  requireDatabaseUrl,
  resolveDatabaseUrl,
  socketUrl,
  type DatabaseWhere,
} from './postgres-url.js';
export {
  checkDatabase,
  DatabaseUnavailableError,
  openDatabase,
  type OpenDatabaseOptions,
} from './database.js';
export { withAdvisoryLock } from './advisory-lock.js';
export { isConnectionFailure } from './connection-failure.js';
