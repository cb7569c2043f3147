import type { FieldType } from '../values/index.js';
import type { TagUsage } from './tag-usage.js';

/**
 * A tag inside a section, as that section holds it: the loop's inner fields, which `fields`
 * shows under the loop. With declarations, a column of a declared list carries its path
 * (`lines[].amount`) and its declared type and format.
 */
export interface InnerField {
  tag: string;
  kind: 'placeholder' | 'section';
  usedAs: TagUsage[];
  /** Occurrences inside this section. */
  count: number;
  /** A declared list's column: `lines[].amount` (its value comes from each row). */
  path?: string;
  type?: FieldType;
  format?: string;
  description?: string;
  /** For a section holding tags: the tags directly inside it. */
  inner?: InnerField[];
}

/**
 * The tags directly inside each section, by the path of sections leading to it: a section's
 * occurrences at one path are merged (`{#vip}` and `{^vip}` hold one set of tags).
 */
export class InnerFieldTree {
  private readonly nodes = new Map<string, Map<string, InnerField>>();

  /** Records one occurrence of `tag` inside the sections `within` (outermost first). */
  add(tag: string, usage: TagUsage, within: readonly string[]): void {
    if (within.length === 0) return;
    const key = pathKey(within);
    let node = this.nodes.get(key);
    if (!node) this.nodes.set(key, (node = new Map<string, InnerField>()));
    let field = node.get(tag);
    if (!field) node.set(tag, (field = { tag, kind: 'placeholder', usedAs: [], count: 0 }));
    if (!field.usedAs.includes(usage)) field.usedAs.push(usage);
    if (usage === 'section' || usage === 'inverted-section') field.kind = 'section';
    field.count++;
  }

  /** The tags directly inside the section at `path` (its own name last), with theirs below. */
  innerOf(path: readonly string[]): InnerField[] | undefined {
    const node = this.nodes.get(pathKey(path));
    if (!node) return undefined;
    return [...node.values()].map((field) => {
      const inner = field.kind === 'section' ? this.innerOf([...path, field.tag]) : undefined;
      return inner ? { ...field, inner } : { ...field };
    });
  }
}

function pathKey(path: readonly string[]): string {
  return path.join('\u0000');
}
