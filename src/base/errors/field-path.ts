/** `/documents/1/tags/0/value` (a JSON pointer, as validators report) as `documents[1].tags[0].value`. */
export function fieldPathOf(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path = /^\d+$/.test(segment) ? `${path}[${segment}]` : joinField(path, segment);
  }
  return path;
}

/** A member's path below `base` (`documents[1]` and `name` give `documents[1].name`). */
export function joinField(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}
