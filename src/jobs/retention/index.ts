export {
  OBJECT_KINDS,
  SWEPT_FOLDERS,
  SWEPT_KINDS,
  classifyKey,
  groupKeys,
  type ClassifiedKey,
  type ObjectKind,
  type SweptKind,
} from './object-kinds.js';
export {
  RECENT_GRACE_MS,
  ageLimit,
  isExpired,
  retentionOn,
  type RetentionAges,
} from './retention-ages.js';
export { GroupCollector, listGroups, type ObjectGroup } from './object-groups.js';
export {
  SWEEP_LOCK_TTL_MS,
  SweepLock,
  isLockBusy,
  sweepLockKey,
  type LockBusy,
  type SweepLockOptions,
} from './sweep-lock.js';
export { UNFINISHED_STATES, readJobReferences, type JobReferences } from './job-references.js';
export {
  REFERENCES_REFRESH_MS,
  sweep,
  type SweepFailure,
  type SweepOptions,
  type SweepOutcome,
  type SweepProgress,
  type SweepReport,
  type SweepSkipped,
  type Tally,
} from './sweep.js';
export { storageStats, type KindStats, type StorageStats } from './storage-stats.js';
export {
  FIRST_SWEEP_DELAY_MS,
  RetentionSweeper,
  type RecordSweep,
  type RecordSweepOutcome,
  type RetentionSweeperOptions,
} from './sweeper.js';
