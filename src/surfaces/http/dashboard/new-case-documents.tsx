import { Field, fill, type FieldErrors, type PageContext } from '../pages/index.js';
import { fieldValue, type DocumentRow } from './new-case-form.js';
import type { FormDocumentChoice } from './new-case-forms.js';
import type { LibraryColumn, LibraryField } from './new-case-library.js';
import { listCell, listRowCount, MAX_LIST_ROWS } from './new-case-list-rows.js';

export interface DocumentRowsProps {
  page: PageContext;
  rows: readonly DocumentRow[];
  /** Each row's library fields, by row; undefined: no library document chosen (or none found). */
  fields: readonly (readonly LibraryField[] | undefined)[];
  library: readonly { id: string; name: string }[];
  /** The documents of the company's active v2 forms; none: no such choice is shown. */
  forms?: readonly FormDocumentChoice[];
  errors: FieldErrors;
}

/** A problem line tied to its input by id (`field-<name>-error`). */
function Problem({ name, errors }: { name: string; errors: FieldErrors }) {
  const error = errors[name];
  return error ? (
    <p class="field-error" id={`field-${name}-error`}>
      {error}
    </p>
  ) : null;
}

const describedBy = (name: string, errors: FieldErrors, hint: boolean) =>
  [hint ? `field-${name}-hint` : '', errors[name] ? `field-${name}-error` : '']
    .filter(Boolean)
    .join(' ') || undefined;

/**
 * A library field's hint: its type and format as the document declares them (the tag alone
 * says neither), then what it means: "Date, in the document as D MMMM YYYY: the date the
 * agreement is made"; a list's adds how its rows are written.
 */
export function fieldHintText(
  page: PageContext,
  field: Omit<LibraryField, 'columns'> & { columns?: unknown },
): string {
  const w = page.words.newCase;
  const type = w.fieldTypes[field.type];
  const typed =
    field.format !== undefined ? fill(w.fieldTypeFormat, { type, format: field.format }) : type;
  const main =
    field.name !== undefined && field.name !== ''
      ? fill(w.fieldHint, { type: typed, about: field.name })
      : typed;
  if (field.type !== 'list') return main;
  return `${main}. ${field.columns ? w.listRowsHint : w.listHint}`;
}

/**
 * One typed input named `name`: a date picker, a number, a checkbox for a boolean, text
 * otherwise (a list whose rows hold lists: a text box for its rows as JSON); its refusal by the
 * service beside it, its type and meaning as its hint.
 */
function TypedInput({
  page,
  name,
  label,
  field,
  value,
  errors,
}: {
  page: PageContext;
  name: string;
  label: string;
  field: Omit<LibraryField, 'columns'>;
  value: string | undefined;
  errors: FieldErrors;
}) {
  const id = `field-${name}`;
  // Every field has its type to tell, so every field has a hint.
  const hintLine = (
    <p class="hint" id={`${id}-hint`}>
      {fieldHintText(page, field)}
    </p>
  );
  const invalid = errors[name] ? 'true' : undefined;
  if (field.type === 'boolean')
    return (
      <div class={errors[name] ? 'field has-error' : 'field'}>
        <Problem name={name} errors={errors} />
        <div class="checkbox">
          <input
            type="checkbox"
            id={id}
            name={name}
            value="true"
            checked={value === 'true'}
            aria-invalid={invalid}
            aria-describedby={describedBy(name, errors, true)}
          />
          <label for={id}>{label}</label>
        </div>
        {hintLine}
      </div>
    );
  if (field.type === 'list')
    return (
      <div class={errors[name] ? 'field has-error' : 'field'}>
        <label for={id}>{label}</label>
        {hintLine}
        <Problem name={name} errors={errors} />
        <textarea
          id={id}
          name={name}
          rows={3}
          aria-invalid={invalid}
          aria-describedby={describedBy(name, errors, true)}
        >
          {value ?? ''}
        </textarea>
      </div>
    );
  return (
    <div class={errors[name] ? 'field has-error' : 'field'}>
      <label for={id}>{label}</label>
      {hintLine}
      <Problem name={name} errors={errors} />
      <input
        id={id}
        name={name}
        type={field.type === 'date' ? 'date' : field.type === 'number' ? 'number' : 'text'}
        step={field.type === 'number' ? 'any' : undefined}
        value={value ?? ''}
        aria-invalid={invalid}
        aria-describedby={describedBy(name, errors, true)}
      />
    </div>
  );
}

/**
 * A library list with columns (the quote's lines, the lease's tenants): a group of rows, each a
 * group of its columns' inputs with a button that removes it, and a button that adds one. Both
 * post the form (`addListRow`, `removeListRow`: the row's document, list and row), so that they
 * work without script; a row left empty is no row of the list (new-case-form.ts).
 */
function ListField({
  page,
  prefix,
  field,
  columns,
  row,
  errors,
}: {
  page: PageContext;
  prefix: string;
  field: LibraryField;
  columns: readonly LibraryColumn[];
  row: DocumentRow;
  errors: FieldErrors;
}) {
  const w = page.words.newCase;
  const name = `${prefix}tags.${field.tag}`;
  const document = prefix.split('.')[1]!;
  const count = listRowCount(row.tags, field.tag);
  return (
    <fieldset
      id={`field-${name}`}
      class={errors[name] ? 'list-field has-error' : 'list-field'}
      aria-describedby={describedBy(name, errors, true)}
    >
      <legend>{field.tag}</legend>
      <p class="hint" id={`field-${name}-hint`}>
        {fieldHintText(page, field)}
      </p>
      <Problem name={name} errors={errors} />
      <input type="hidden" name={`${name}.rows`} value={String(count)} />
      {Array.from({ length: count }, (_, r) => {
        const n = String(r + 1);
        return (
          <fieldset class="list-row">
            <legend>{fill(w.listRow, { n })}</legend>
            {columns.map((c) => (
              <TypedInput
                page={page}
                name={`${name}.${r}.${c.tag}`}
                label={c.tag}
                field={c}
                value={listCell(row.tags, field.tag, r, c.tag)}
                errors={errors}
              />
            ))}
            <button
              type="submit"
              class="secondary"
              name="removeListRow"
              value={`${document}:${r}:${field.tag}`}
              formnovalidate
            >
              {fill(w.removeListRow, { n, list: field.tag })}
            </button>
          </fieldset>
        );
      })}
      {count < MAX_LIST_ROWS ? (
        <button
          type="submit"
          class="secondary"
          name="addListRow"
          value={`${document}:${field.tag}`}
          formnovalidate
        >
          {fill(w.addListRow, { list: field.tag })}
        </button>
      ) : null}
    </fieldset>
  );
}

/** One library field by its tag: a list with columns as its rows, any other as one typed input. */
function TagField({
  page,
  prefix,
  field,
  row,
  errors,
}: {
  page: PageContext;
  prefix: string;
  field: LibraryField;
  row: DocumentRow;
  errors: FieldErrors;
}) {
  if (field.type === 'list' && field.columns)
    return (
      <ListField
        page={page}
        prefix={prefix}
        field={field}
        columns={field.columns}
        row={row}
        errors={errors}
      />
    );
  return (
    <TypedInput
      page={page}
      name={`${prefix}tags.${field.tag}`}
      label={field.tag}
      field={field}
      value={fieldValue(row, field)}
      errors={errors}
    />
  );
}

/**
 * With script, choosing a document shows its fields at once: the form is posted as "Show fields"
 * would post it, and only the documents fieldset of the answer replaces this one. Without
 * script the button does the same.
 */
function showFieldsOnChange(row: number): Record<string, string> {
  return {
    'hx-post': '/dashboard/cases/new',
    'hx-trigger': 'change',
    'hx-encoding': 'multipart/form-data',
    'hx-vals': JSON.stringify({ showFields: String(row) }),
    'hx-select': '#field-documents',
    'hx-target': '#field-documents',
    'hx-swap': 'outerHTML',
  };
}

/**
 * The New case form's documents (issue 34): a row each, an uploaded file (kept as the company's
 * upload, carried by its URL in hidden fields so that it survives every re-render) or a library
 * document whose fields "Show fields" brings in. Add and Remove document post the form, so the
 * rows work without script, as the recipient rows do.
 */
export function DocumentRows({
  page,
  rows,
  fields,
  library,
  forms = [],
  errors,
}: DocumentRowsProps) {
  const w = page.words.newCase;
  return (
    <fieldset id="field-documents" aria-describedby="field-documents-hint">
      <legend>{w.documents}</legend>
      <p class="hint" id="field-documents-hint">
        {w.documentsHint}
      </p>
      <Problem name="documents" errors={errors} />
      <input type="hidden" name="docs" value={String(rows.length)} />
      {rows.map((row, i) => {
        const p = `documents.${i}.`;
        const n = String(i + 1);
        const own = fields[i];
        const chosen =
          row.source === 'form'
            ? forms.find((f) => f.ref === row.formDocument)?.name
            : library.find((d) => d.id === row.documentId)?.name;
        return (
          <fieldset class="document-row">
            <legend>{fill(w.document, { n })}</legend>
            <Field
              name={`${p}name`}
              label={w.documentName}
              hint={w.documentNameHint}
              value={row.name}
              errors={errors}
            />
            {row.upload ? (
              <>
                <input type="hidden" name={`${p}upload`} value={row.upload} />
                <input type="hidden" name={`${p}uploadName`} value={row.uploadName} />
              </>
            ) : null}
            <div class={errors[`${p}file`] ? 'field has-error' : 'field'}>
              <label for={`field-${p}file`}>{w.file}</label>
              {row.upload ? (
                <p class="hint" id={`field-${p}file-hint`}>
                  {fill(w.fileKept, { name: row.uploadName })}
                </p>
              ) : null}
              <Problem name={`${p}file`} errors={errors} />
              <input
                type="file"
                id={`field-${p}file`}
                name={`${p}file`}
                accept=".pdf,.docx,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
                aria-invalid={errors[`${p}file`] ? 'true' : undefined}
                aria-describedby={describedBy(`${p}file`, errors, row.upload !== '')}
              />
            </div>
            <div class={errors[`${p}documentId`] ? 'field has-error' : 'field'}>
              <label for={`field-${p}documentId`}>{w.libraryDocument}</label>
              <Problem name={`${p}documentId`} errors={errors} />
              <select
                id={`field-${p}documentId`}
                name={`${p}documentId`}
                aria-invalid={errors[`${p}documentId`] ? 'true' : undefined}
                aria-describedby={describedBy(`${p}documentId`, errors, false)}
                {...showFieldsOnChange(i)}
              >
                <option value="">{w.noDocument}</option>
                {library.map((d) => (
                  <option value={d.id} selected={d.id === row.documentId}>
                    {d.name}
                  </option>
                ))}
              </select>
            </div>
            {forms.length > 0 || row.formDocument !== '' ? (
              <div class={errors[`${p}formDocument`] ? 'field has-error' : 'field'}>
                <label for={`field-${p}formDocument`}>{w.formDocument}</label>
                <Problem name={`${p}formDocument`} errors={errors} />
                <select
                  id={`field-${p}formDocument`}
                  name={`${p}formDocument`}
                  aria-invalid={errors[`${p}formDocument`] ? 'true' : undefined}
                  aria-describedby={describedBy(`${p}formDocument`, errors, false)}
                  {...showFieldsOnChange(i)}
                >
                  <option value="">{w.noDocument}</option>
                  {forms.map((f) => (
                    <option value={f.ref} selected={f.ref === row.formDocument}>
                      {fill(w.formDocumentOption, { form: f.form, name: f.name })}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            <button
              type="submit"
              class="secondary"
              name="showFields"
              value={String(i)}
              formnovalidate
            >
              {fill(w.showFields, { n })}
            </button>
            {row.source !== 'upload' && own && own.length > 0 ? (
              <fieldset class="document-fields">
                <legend>{fill(w.fieldsOf, { name: chosen ?? row.documentId })}</legend>
                <input type="hidden" name={`${p}shown`} value="true" />
                {own.map((f) => (
                  <TagField page={page} prefix={p} field={f} row={row} errors={errors} />
                ))}
              </fieldset>
            ) : null}
            <button
              type="submit"
              class="secondary"
              name="removeDocument"
              value={String(i)}
              formnovalidate
            >
              {fill(w.removeDocument, { n })}
            </button>
          </fieldset>
        );
      })}
      <button type="submit" class="secondary" name="addDocument" value="1" formnovalidate>
        {w.addDocument}
      </button>
    </fieldset>
  );
}
