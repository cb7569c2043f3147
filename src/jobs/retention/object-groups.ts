import type { Storage, StoredObject } from '../../render/storage/index.js';
import { SWEPT_FOLDERS, classifyKey, type ObjectKind } from './object-kinds.js';

/**
 * An object and its companions (an upload's sidecar, a render's marker), or the companions left
 * alone when a removal stopped half way. They count as written when the newest of them was: a
 * render reused from the cache rewrites its marker, and a repeated upload its sidecar, so reuse
 * makes the whole group young again without any extra write.
 */
export interface ObjectGroup {
  kind: ObjectKind;
  /** The key the group is named after (see ClassifiedKey.group). */
  name: string;
  members: StoredObject[];
  bytes: number;
  /** When its newest member was written. */
  modified: Date;
}

/** Gathers listed objects into groups, whatever order the listing gives them in. */
export class GroupCollector {
  private readonly groups = new Map<string, ObjectGroup>();

  add(object: StoredObject): void {
    const { kind, group: name } = classifyKey(object.key);
    // `other` objects are their own group each, keyed apart so that no key can join them.
    const id = kind === 'other' ? `other:${object.key}` : name;
    const group = this.groups.get(id);
    if (!group) {
      this.groups.set(id, {
        kind,
        name,
        members: [object],
        bytes: object.bytes,
        modified: object.modified,
      });
      return;
    }
    group.members.push(object);
    group.bytes += object.bytes;
    if (object.modified > group.modified) group.modified = object.modified;
  }

  get size(): number {
    return this.groups.size;
  }

  all(): ObjectGroup[] {
    return [...this.groups.values()];
  }
}

/**
 * Every group under `folders` (by default the ones retention removes from; `['']` for all of
 * storage). `onObject` is told of each object listed, for a progress display; `signal` ends the
 * listing early.
 */
export async function listGroups(
  storage: Storage,
  folders: readonly string[] = SWEPT_FOLDERS,
  onObject: () => void = () => undefined,
  signal?: AbortSignal,
): Promise<ObjectGroup[]> {
  const collector = new GroupCollector();
  for (const folder of folders)
    for await (const object of storage.list(folder)) {
      // A closing process stops listing; its caller sees the signal and removes nothing.
      if (signal?.aborted) return collector.all();
      collector.add(object);
      onObject();
    }
  return collector.all();
}
