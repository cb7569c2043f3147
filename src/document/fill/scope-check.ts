import type { FailureDetail } from '../../base/errors/index.js';
import { didYouMean } from '../../base/util/index.js';
import type { DocxPackage } from '../../formats/sniff/index.js';
import type { CompiledFiles } from './docxtemplater-internals.js';
import { declarationOf, type FieldDeclarations } from '../values/index.js';
import type { ListRow, ResolvedCell } from '../values/index.js';
import { columnPath } from '../values/index.js';
import { normalizeTagName, type ResolvedTag } from '../values/index.js';
import { tagLabel } from '../values/index.js';
import { CURRENT_SCOPE_TAG, filesInOrder, usageOf, type CompiledPart } from '../fields/index.js';
import type { Delimiters } from './template.js';

export interface ScopeCheck {
  compiled: CompiledFiles;
  pkg: DocxPackage;
  values: Map<string, ResolvedTag>;
  tagsField: string;
  delimiters: Delimiters;
  fields: FieldDeclarations | undefined;
}

/**
 * What the template would show that the values cannot fill, found by walking the template as
 * docxtemplater renders it: a loop over a list walks its body once per row, with the row's cells
 * looked up before the values outside (docxtemplater's scope rule), and a hidden section is not
 * walked. Finds tags without a value (`tags.start_date`), cells a row lacks
 * (`tags[3].value[1].amount`), and lists used as placeholders.
 */
export function templateValueProblems(check: ScopeCheck): FailureDetail[] {
  const found = new Map<string, string>();
  const walk = (parts: CompiledPart[], rows: ListRow[]): void => {
    for (const part of parts) {
      if (part.type !== 'placeholder') continue;
      const inner = checkPart(check, part, rows, found);
      for (const scope of inner) walk(part.subparsed!, scope);
    }
  };
  for (const file of filesInOrder(check.compiled, check.pkg))
    walk(check.compiled[file]!.postparsed, []);
  return [...found].map(([field, message]) => ({ field, message }));
}

/** Problems of one tag, and the scopes its section's body is shown in (none when hidden). */
function checkPart(
  check: ScopeCheck,
  part: CompiledPart,
  rows: ListRow[],
  found: Map<string, string>,
): ListRow[][] {
  const tag = normalizeTagName(part.value);
  if (tag === CURRENT_SCOPE_TAG) return shown(part, rows, true);
  const cell = cellOf(check.values, rows, tag);
  const usage = usageOf(part);
  if (!cell) {
    const row = rows.at(-1);
    if (row)
      note(
        found,
        `${row.field}.${tag}`,
        `${tagLabel(row.owner, row.label)}: the row has no ${tag}; the template shows it`,
      );
    else
      note(
        found,
        `${check.tagsField}.${tag}`,
        `${tag} needs a value: the template shows this field${didYouMean(tag, knownNames(check))}`,
      );
    // The tags inside a missing section are named too, unless it is a declared list: they are
    // its columns, not values of their own.
    return shown(
      part,
      rows,
      row !== undefined || declarationOf(check.fields, tag)?.type !== 'list',
    );
  }
  if (usage === 'section')
    return cell.rows ? cell.rows.map((r) => [...rows, r]) : shown(part, rows, cell.truthy);
  if (usage === 'inverted-section')
    return shown(part, rows, cell.rows ? cell.rows.length === 0 : !cell.truthy);
  if (cell.rows) {
    const { start, end } = check.delimiters;
    const row = rows.findLast((r) => r.cells.has(tag));
    const at = `${check.tagsField}[${(cell as ResolvedTag).index}]`;
    const field = row ? `${row.field}.${tag}` : at;
    const label = row ? tagLabel(row.owner, `${row.label}.${tag}`) : tagLabel(at, tag);
    note(
      found,
      field,
      `${label}: the template shows this list as a placeholder (${start}${part.module === 'rawxml' ? '@' : ''}${tag}${end}), but a list fills a loop: ${start}#${tag}${end}...${start}/${tag}${end}`,
    );
  }
  return NONE;
}

const NONE: ListRow[][] = [];

/** The names a misspelt tag may have meant: the values given and the fields declared. */
function knownNames(check: ScopeCheck): string[] {
  return [...check.values.keys(), ...Object.keys(check.fields ?? {})];
}

/** The scopes a section's body is walked in; most tags are placeholders and make no array. */
function shown(part: CompiledPart, rows: ListRow[], visible: boolean): ListRow[][] {
  return visible && part.subparsed ? [rows] : NONE;
}

/** Keeps the first message for a field: a tag used twice is named as it first appears. */
function note(found: Map<string, string>, field: string, message: string): void {
  if (!found.has(field)) found.set(field, message);
}

/** A tag's value as docxtemplater finds it: in the innermost row that has it, else outside. */
function cellOf(
  values: Map<string, ResolvedTag>,
  rows: ListRow[],
  tag: string,
): ResolvedCell | undefined {
  for (let i = rows.length - 1; i >= 0; i--) {
    const cell = rows[i]!.cells.get(tag);
    if (cell) return cell;
  }
  return values.get(tag);
}

/**
 * Strict mode for lists: cells in columns the template never shows inside the list's loop. Each
 * column is named once, at the first row that has it.
 */
export function unshownColumns(
  compiled: CompiledFiles,
  pkg: DocxPackage,
  values: Map<string, ResolvedTag>,
): FailureDetail[] {
  const lists = [...values.values()].filter((v) => v.rows && v.rows.length > 0);
  if (lists.length === 0) return [];
  const contents = sectionContents(compiled, pkg);
  const found = new Map<string, FailureDetail>();
  const visit = (name: string, rows: ListRow[]): void => {
    const shownHere = contents.get(name);
    for (const row of rows) {
      for (const [column, cell] of row.cells) {
        if (!shownHere?.has(column)) {
          const path = `${columnPath(row.label)}.${column}`;
          if (!found.has(path))
            found.set(path, {
              field: `${row.field}.${column}`,
              message: `${tagLabel(row.owner, `${row.label}.${column}`)}: the template does not show the column ${path} inside its loop (strict mode refuses values it would not show)`,
            });
        } else if (cell.rows) visit(column, cell.rows);
      }
    }
  };
  for (const list of lists) visit(list.tag, list.rows!);
  return [...found.values()];
}

/** For each section name, the tags anywhere inside a section of that name. */
function sectionContents(compiled: CompiledFiles, pkg: DocxPackage): Map<string, Set<string>> {
  const contents = new Map<string, Set<string>>();
  const walk = (parts: CompiledPart[], within: string[]): void => {
    for (const part of parts) {
      if (part.type !== 'placeholder') continue;
      const tag = normalizeTagName(part.value);
      for (const section of within) {
        let set = contents.get(section);
        if (!set) contents.set(section, (set = new Set()));
        set.add(tag);
      }
      if (part.subparsed) walk(part.subparsed, [...within, tag]);
    }
  };
  for (const file of filesInOrder(compiled, pkg)) walk(compiled[file]!.postparsed, []);
  return contents;
}
