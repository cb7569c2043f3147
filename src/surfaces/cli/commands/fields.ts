import type { Command } from 'commander';
import type { InnerField, TemplateField } from '../../../document/fields/index.js';
import { printJson } from '../print-json.js';
import { runDocumentCommand } from '../report-failure.js';

export function registerFields(program: Command): void {
  program
    .command('fields')
    .description(
      'list the fields a .docx template needs filled: tag, kind, parts and count, with the fields inside each loop',
    )
    .argument('<template>', "the .docx template (a library document's document.json is read)")
    .option(
      '--json',
      'print a JSON array of {tag, kind, usedAs, count, parts, within, type?, format?, inner?}',
    )
    .option(
      '--delimiters <pair>',
      'tag delimiters, start and end separated by a space, such as "{{ }}"',
    )
    .addHelpText(
      'after',
      '\nExit status: 0 ok, 1 when the template is broken or not a .docx (typed failure), 2 on bad usage.',
    )
    .action(async (template: string, flags: { json?: boolean; delimiters?: string }) => {
      const { loadConfig } = await import('../../../app/config/index.js');
      const { InlinePreparer } = await import('../../../render/prepare/index.js');
      const { readInput, TooLargeInput } = await import('../../../base/files/index.js');
      const { fillOptionsFrom, templateArgument } = await import('../io.js');
      const config = loadConfig();
      const argument = await templateArgument(template);
      const options = fillOptionsFrom(flags, config, argument.options);
      const bytes = await readInput(argument.file, config.limits.maxInputBytes);
      // In this thread: one template's fields cost less than starting a prepare thread does.
      const pool = new InlinePreparer({ limits: config.limits, values: config.values });
      try {
        await runDocumentCommand(flags.json, async () => {
          if (bytes instanceof TooLargeInput) throw bytes.toError('template');
          const fields = await pool.fields(bytes, {
            delimiters: options.delimiters,
            ...(options.fields ? { fields: options.fields } : {}),
          });
          if (flags.json) return printJson(fields);
          if (fields.length === 0) return void process.stdout.write('no fields\n');
          process.stdout.write(fieldsTable(fields));
        });
      } finally {
        await pool.close();
      }
    });
}

interface Line {
  label: string;
  kind: string;
  type: string;
  format: string;
  count: number;
  parts: string;
}

/**
 * The fields as a table: each field outside any section, and under a section the fields inside
 * it, indented (a declared list's columns by their path, `lines[].amount`). TYPE and FORMAT show
 * when the template's folder declares its fields.
 */
export function fieldsTable(fields: TemplateField[]): string {
  const lines: Line[] = [];
  const addInner = (inner: InnerField[] | undefined, depth: number): void => {
    for (const f of inner ?? []) {
      lines.push(line(`${'  '.repeat(depth)}${f.path ?? f.tag}`, f, ''));
      addInner(f.inner, depth + 1);
    }
  };
  for (const f of fields.filter((field) => field.within.length === 0)) {
    const parts = f.parts.map((p) => (p.part === 'other' ? p.file : p.part)).join(', ');
    lines.push(line(f.tag, f, parts));
    addInner(f.inner, 1);
  }
  const typed = lines.some((l) => l.type !== '');
  const width = Math.min(40, Math.max(3, ...lines.map((l) => l.label.length)));
  const formatWidth = Math.min(24, Math.max(6, ...lines.map((l) => l.format.length)));
  const typeColumns = (type: string, format: string) =>
    typed ? `${type.padEnd(7)}  ${format.padEnd(formatWidth)}  ` : '';
  let out = `${'TAG'.padEnd(width)}  KIND         ${typeColumns('TYPE', 'FORMAT')}COUNT  PARTS\n`;
  for (const l of lines)
    out +=
      `${l.label.padEnd(width)}  ${l.kind.padEnd(11)}  ${typeColumns(l.type, l.format)}${String(l.count).padStart(5)}  ${l.parts}`.trimEnd() +
      '\n';
  return out;
}

function line(label: string, field: InnerField | TemplateField, parts: string): Line {
  return {
    label,
    kind: field.kind,
    type: field.type ?? '',
    format: field.format ?? '',
    count: field.count,
    parts,
  };
}
