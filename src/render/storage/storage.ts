/** What is kept about a stored object besides its bytes. */
export interface StoredObject {
  key: string;
  bytes: number;
  /** Content type, such as `application/pdf`. */
  type: string;
  /** When it was last written: retention ages count from here. */
  modified: Date;
  /**
   * The SHA-256 of its bytes in hex, when the store keeps it beside them (S3 storage does) and
   * says it without reading the bytes; undefined otherwise.
   */
  sha256?: string;
}

/**
 * Where produced documents live. Keys are chosen by docpipe (content hashes), never taken from a
 * user's file name. Writes are atomic: a reader sees the whole object or none.
 */
export interface Storage {
  put(key: string, data: Uint8Array, type: string): Promise<StoredObject>;
  get(key: string): Promise<Buffer | undefined>;
  stat(key: string): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  /**
   * Copies `from` to `to` inside the store, its type kept, as atomically as put: the bytes need
   * not pass through docpipe (a file copy on disk, a server-side copy on S3). False when `from`
   * is not there (nothing written).
   */
  copy(from: string, to: string): Promise<boolean>;
  /**
   * Makes an object count as written now (retention ages count from its last write), when it
   * is there; a render reused from the cache is as young as its last use.
   */
  touch(key: string): Promise<void>;
  /**
   * Every stored object whose key starts with `prefix` (a folder such as `renders/`, or '' for
   * all), in no particular order; objects still being written are not listed.
   */
  list(prefix: string): AsyncIterable<StoredObject>;
}

const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

/** Keys are lower-case path segments of [a-z0-9._-], none starting with a dot: no traversal, ever. */
export function checkKey(key: string): string {
  if (key.length > 512 || !KEY.test(key) || key.split('/').some((s) => s.startsWith('.'))) {
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  }
  return key;
}
