import { declarationOf, type FieldDeclaration, type FieldDeclarations } from '../values/index.js';
import type { InnerField } from './inner-fields.js';
import type { TemplateField } from './template-fields.js';

/** A declared list a tag sits inside: its columns, and how its rows are named (`lines[]`). */
interface EnclosingList {
  prefix: string;
  columns: FieldDeclarations | undefined;
}

/**
 * The template's fields with what the declarations say of them: each field's declared type,
 * format and description, and inside a declared list, its columns' (`lines[].amount`, number,
 * `#,##0.00`). A tag in a loop that is not a column comes from outside the list, as it renders.
 * The fields are copied, never changed: a compiled template's fields are shared.
 */
export function declareFields(
  fields: TemplateField[],
  declarations: FieldDeclarations | undefined,
): TemplateField[] {
  if (declarations === undefined) return fields;
  return fields.map((field) => {
    const declared = declarationOf(declarations, field.tag);
    const out: TemplateField = { ...field, ...described(declared) };
    if (field.inner) {
      const chain = declared?.type === 'list' ? [listOf(`${field.tag}[]`, declared)] : [];
      out.inner = declareInner(field.inner, chain, declarations);
    }
    return out;
  });
}

function declareInner(
  fields: InnerField[],
  chain: EnclosingList[],
  declarations: FieldDeclarations,
): InnerField[] {
  return fields.map((field) => {
    let declared: FieldDeclaration | undefined;
    let path: string | undefined;
    for (let i = chain.length - 1; i >= 0 && !declared; i--) {
      declared = declarationOf(chain[i]!.columns, field.tag);
      if (declared) path = `${chain[i]!.prefix}.${field.tag}`;
    }
    declared ??= declarationOf(declarations, field.tag);
    const out: InnerField = { ...field, ...(path ? { path } : {}), ...described(declared) };
    if (field.inner) {
      const inner =
        declared?.type === 'list' ? [...chain, listOf(`${path ?? field.tag}[]`, declared)] : chain;
      out.inner = declareInner(field.inner, inner, declarations);
    }
    return out;
  });
}

function listOf(prefix: string, declared: FieldDeclaration): EnclosingList {
  return { prefix, columns: declared.columns };
}

function described(
  declared: FieldDeclaration | undefined,
): Pick<TemplateField, 'type' | 'format' | 'description'> {
  if (!declared) return {};
  const out: Pick<TemplateField, 'type' | 'format' | 'description'> = { type: declared.type };
  if (declared.format !== undefined) out.format = declared.format;
  if (declared.description !== undefined) out.description = declared.description;
  return out;
}
