import type { DocxPackage } from '../../formats/sniff/index.js';
import type { FieldType } from '../values/index.js';
import { InnerFieldTree, type InnerField } from './inner-fields.js';
import { PART_ORDER, partKind, type PartKind } from './parts.js';
import { normalizeTagName } from '../values/index.js';
import type { TagUsage } from './tag-usage.js';

export type { TagUsage } from './tag-usage.js';

/** A field a template needs filled: what spec section 4.4 lists for a library document. */
export interface TemplateField {
  tag: string;
  /** `section` when the tag opens any section (`{#tag}` or `{^tag}`), else `placeholder`. */
  kind: 'placeholder' | 'section';
  usedAs: TagUsage[];
  /** Occurrences in the whole document. */
  count: number;
  parts: { part: PartKind; file: string; count: number }[];
  /** Sections this tag sits inside, outermost first, from its first occurrence. */
  within: string[];
  /** Declared type (only when declarations are given). */
  type?: FieldType;
  /** Declared format. */
  format?: string;
  /** Declared description. */
  description?: string;
  /**
   * For a section holding tags: the tags directly inside it (where it first opens), each with the
   * tags inside it in turn. A declared list's columns carry their path and declared type.
   */
  inner?: InnerField[];
}

/** The parts of docxtemplater's compiled form this code reads. */
export interface CompiledPart {
  type: string;
  value: string;
  module?: string;
  inverted?: boolean;
  offset?: number;
  subparsed?: CompiledPart[];
}

/** The tag that refers to the enclosing section's own value, not a field. */
export const CURRENT_SCOPE_TAG = '.';

export function usageOf(part: CompiledPart): TagUsage {
  if (part.module === 'loop') return part.inverted ? 'inverted-section' : 'section';
  if (part.module === 'rawxml') return 'raw';
  return 'placeholder';
}

/** Walks every templated file's compiled parts, in document order (body first). */
export function walkTags(
  compiled: Record<string, { postparsed: CompiledPart[] }>,
  pkg: DocxPackage,
  visit: (part: CompiledPart, file: string, within: string[]) => boolean | void,
): void {
  const walk = (parts: CompiledPart[], file: string, within: string[]): void => {
    for (const part of parts) {
      if (part.type !== 'placeholder') continue;
      const descend = visit(part, file, within);
      if (part.subparsed && descend !== false)
        walk(part.subparsed, file, [...within, normalizeTagName(part.value)]);
    }
  };
  for (const file of filesInOrder(compiled, pkg)) walk(compiled[file]!.postparsed, file, []);
}

/** The templated files in document order: body, headers, footers, notes, properties. */
export function filesInOrder(compiled: Record<string, unknown>, pkg: DocxPackage): string[] {
  return Object.keys(compiled).sort(
    (a, b) => fileOrder(pkg, a) - fileOrder(pkg, b) || a.localeCompare(b),
  );
}

function fileOrder(pkg: DocxPackage, file: string): number {
  return PART_ORDER.indexOf(partKind(pkg, file));
}

export function collectFields(
  compiled: Record<string, { postparsed: CompiledPart[] }>,
  pkg: DocxPackage,
): TemplateField[] {
  const byTag = new Map<string, TemplateField>();
  const tree = new InnerFieldTree();
  /** Where each section tag first opens: its inner fields are read from there. */
  const opensAt = new Map<string, string[]>();
  walkTags(compiled, pkg, (part, file, within) => {
    const tag = normalizeTagName(part.value);
    if (tag === CURRENT_SCOPE_TAG) return;
    let field = byTag.get(tag);
    if (!field) {
      field = { tag, kind: 'placeholder', usedAs: [], count: 0, parts: [], within };
      byTag.set(tag, field);
    }
    const usage = usageOf(part);
    if (!field.usedAs.includes(usage)) field.usedAs.push(usage);
    if (usage === 'section' || usage === 'inverted-section') {
      field.kind = 'section';
      if (!opensAt.has(tag)) opensAt.set(tag, [...within, tag]);
    }
    field.count++;
    const inPart = field.parts.find((p) => p.file === file);
    if (inPart) inPart.count++;
    else field.parts.push({ part: partKind(pkg, file), file, count: 1 });
    tree.add(tag, usage, within);
  });
  return [...byTag.values()].map((field) => {
    const at = opensAt.get(field.tag);
    const inner = at ? tree.innerOf(at) : undefined;
    return inner ? { ...field, inner } : field;
  });
}
