import { readJson } from '../../../base/files/index.js';
import { PresetRepository, type Preset } from '../../../service/companies/index.js';
import { companyFlag, printJson } from '../io.js';
import { withRecordsDatabase } from './records-database.js';
import { textTable, when } from './text-table.js';

/** `docpipe presets add`, declared in commands/presets.ts. */
export async function addPreset(
  file: string,
  flags: { company: string; json?: boolean },
): Promise<void> {
  const company = companyFlag(flags.company)!;
  // Read before the database is looked for: an unreadable file or bad JSON is named first.
  const data = await readJson(file);
  await withRecordsDatabase({ json: flags.json, file }, async (db) => {
    const preset = await new PresetRepository(db).add(company, data);
    if (flags.json) printJson(preset);
    else
      process.stdout.write(
        `added preset ${JSON.stringify(preset.name)} (presetId ${preset.id}) to company ${company}\n`,
      );
  });
}

/** `docpipe presets list`, declared in commands/presets.ts. */
export async function listPresets(flags: { company: string; json?: boolean }): Promise<void> {
  const company = companyFlag(flags.company)!;
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    const presets = await new PresetRepository(db).list(company);
    if (flags.json) printJson(presets);
    else if (presets.length === 0)
      process.stderr.write(
        `docpipe: company ${company} has no presets; add one with: docpipe presets add --company ${company} <file.json>\n`,
      );
    else process.stdout.write(table(presets));
  });
}

function table(presets: Preset[]): string {
  return textTable(
    ['ID', 'CREATED', 'NAME'],
    presets.map((p) => [p.id, when(p.createdAt), p.name]),
  );
}
