import type { Command } from 'commander';
import type { RerenderFlags } from '../actions/rerender.js';

export function registerRerender(program: Command): void {
  program
    .command('rerender')
    .description(
      're-render documents in bulk through the queue: a library folder, any folder of files, or a manifest.jsonl',
    )
    .argument(
      '<source>',
      'the library (templates/), a folder of .docx/.pdf files, or manifest.jsonl',
    )
    .option(
      '-t, --tags <file>',
      "tag values for every document (default: each library document's first fixture)",
    )
    .option('--out-dir <folder>', 'also copy each PDF here, named after its document')
    .option('--json', 'print the JSON report (each PDF with its absolute path)')
    .option('--timeout <ms>', 'how long to wait for each document', '600000')
    .option(
      '--company <id>',
      "the company the documents are for: companies' jobs take turns (default: none, one shared line)",
    )
    .addHelpText(
      'after',
      '\nmanifest.jsonl: one object a line, with exactly these members:\n' +
        '  {"documentId": "lease", "versionId": "1", "name": "...", "tags": [...]}   a library document\n' +
        '  {"file": "contracts/a.docx", "name": "...", "tags": [...]}              a file; a relative path is\n' +
        "                                                                          relative to the manifest's folder\n" +
        'Unknown members and malformed lines are refused before anything is sent (exit 2); a missing file is a\n' +
        'failed line in the report. Library documents need a value for every field they show.\n' +
        'Job ids are stable: a rerun resumes (jobs still known to Redis are not added again; finished renders come from storage)\n' +
        'and tries again what failed. Each template is filled with its document.json settings, as "docpipe render" fills it.\n' +
        'Exit status: 0 when every document rendered, 1 when any failed, 2 on bad usage, 3 when Redis does not\n' +
        'answer or no worker runs (what was queued stays queued: run it again to resume).',
    )
    .action(async (source: string, flags: RerenderFlags) =>
      (await import('../actions/rerender.js')).runRerender(source, flags),
    );
}
