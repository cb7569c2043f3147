/**
 * Resolves a relationship target to the zip entry name of the part it points at. Targets are
 * URIs relative to the source part's folder, or absolute from the package root.
 */
export function resolvePartName(sourcePart: string, target: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    decoded = target;
  }
  decoded = decoded.replace(/\\/g, '/');
  const base = decoded.startsWith('/') ? [] : sourcePart.split('/').slice(0, -1);
  const segments = [...base];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/');
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > name.lastIndexOf('/') ? name.slice(dot + 1).toLowerCase() : '';
}
