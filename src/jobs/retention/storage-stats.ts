import type { Storage } from '../../render/storage/index.js';
import { listGroups } from './object-groups.js';
import { OBJECT_KINDS, type ObjectKind } from './object-kinds.js';
import { ageLimit, isExpired, type RetentionAges } from './retention-ages.js';

export interface KindStats {
  objects: number;
  bytes: number;
  /** When the oldest group (an object with its companions) was last written; null when none. */
  oldest: Date | null;
  /** The age at which this kind is removed; null when it is kept for ever. */
  maxAgeMs: number | null;
  /** Past their age now (a sweep removes them unless an unfinished job needs them). */
  expired: { objects: number; bytes: number };
}

export interface StorageStats {
  at: Date;
  kinds: Record<ObjectKind, KindStats>;
}

/**
 * What storage holds, by kind: objects, bytes, the oldest, and how much is past its age now.
 * Reads storage only (no Redis): which expired objects jobs still need is the sweep's to find.
 */
export async function storageStats(
  storage: Storage,
  ages: RetentionAges,
  options: { now?: () => number; onObject?: () => void } = {},
): Promise<StorageStats> {
  const groups = await listGroups(storage, [''], options.onObject);
  const at = (options.now ?? Date.now)();
  const kinds = Object.fromEntries(
    OBJECT_KINDS.map((kind) => [
      kind,
      {
        objects: 0,
        bytes: 0,
        oldest: null,
        maxAgeMs: ageLimit(kind, ages) ?? null,
        expired: { objects: 0, bytes: 0 },
      },
    ]),
  ) as Record<ObjectKind, KindStats>;
  for (const group of groups) {
    const stats = kinds[group.kind];
    stats.objects += group.members.length;
    stats.bytes += group.bytes;
    if (!stats.oldest || group.modified < stats.oldest) stats.oldest = group.modified;
    if (isExpired(group.kind, group.modified, ages, at)) {
      stats.expired.objects += group.members.length;
      stats.expired.bytes += group.bytes;
    }
  }
  return { at: new Date(at), kinds };
}
