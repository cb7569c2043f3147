import { createHash } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { EnginePool } from '../../pool/index.js';
import { UsageError } from '../exit-codes.js';
import { fillOptionsFrom, printJson, readInput, readJson, type TemplateFlags } from '../io.js';
import { runDocumentCommand } from '../report-failure.js';

interface RenderFlags extends TemplateFlags {
  tags?: string;
  out: string;
  json?: boolean;
}

export function registerRender(program: Command): void {
  program
    .command('render')
    .description('fill a .docx template with tag values and write the filled .docx')
    .argument('<template>', 'the .docx template')
    .requiredOption('-o, --out <file>', 'where to write the filled document (.docx)')
    .option('-t, --tags <file>', 'JSON file: an array of {tag, value, type, format}')
    .option('--json', 'print the result, or the typed failure {error, details}, as JSON')
    .option('--locale <tag>', 'locale for dates, numbers and booleans (da, en, sv, nb, de, ...)')
    .option('--time-zone <zone>', 'IANA time zone for date-times with an offset')
    .option(
      '--delimiters <pair>',
      'tag delimiters, start and end separated by a space, such as "{{ }}"',
    )
    .option('--strict', 'refuse values for tags the template does not have')
    .addHelpText(
      'after',
      '\nExample:\n  docpipe render templates/lease/template.docx --tags templates/lease/fixtures/basic.tags.json --out lease.docx\n' +
        '\nExit status: 0 ok, 1 typed failure (bad values, broken template, not a .docx), 2 on bad usage.',
    )
    .action(async (template: string, flags: RenderFlags) => {
      if (extname(flags.out).toLowerCase() !== '.docx') {
        throw new UsageError(
          '--out must name a .docx file: this version of docpipe fills templates; PDF output arrives with the converter',
        );
      }
      const config = loadConfig();
      const options = fillOptionsFrom(flags, config);
      const [bytes, tags] = await Promise.all([
        readInput(template),
        flags.tags ? readJson(flags.tags) : Promise.resolve([]),
      ]);
      const pool = new EnginePool({ threads: 1, limits: config.limits });
      try {
        await runDocumentCommand(flags.json, async () => {
          const started = performance.now();
          const { docx, fields } = await pool.fill(bytes, tags, options);
          // Write next to the target and rename, so that a reader never sees half a file.
          const temporary = `${flags.out}.${process.pid}.tmp`;
          await writeFile(temporary, docx);
          await rename(temporary, flags.out);
          const result = {
            out: flags.out,
            type: 'docx',
            bytes: docx.length,
            sha256: createHash('sha256').update(docx).digest('hex'),
            fields: fields.length,
            ms: Math.round(performance.now() - started),
          };
          if (flags.json) printJson(result);
          else
            process.stdout.write(
              `wrote ${result.out} (${result.bytes} bytes, ${result.fields} fields) in ${result.ms} ms\n`,
            );
        });
      } finally {
        await pool.close();
      }
    });
}
