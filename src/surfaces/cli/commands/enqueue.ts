import type { Command } from 'commander';
import type { EnqueueFlags } from '../actions/enqueue.js';

export function registerEnqueue(program: Command): void {
  program
    .command('enqueue')
    .description('send one document through the queue to a running docpipe and wait for its result')
    .argument(
      '[input]',
      "a .docx or PDF to render, or a library document's folder (or use --library)",
    )
    .option('-t, --tags <file>', 'JSON file: an array of {tag, value, type, format}')
    .option('--library <id[@version]>', 'render a library document instead of a file')
    .option('-o, --out <file.pdf>', 'also copy the PDF here')
    .option(
      '--name <name>',
      "document name (default: the file name, a folder's document name, or the library id)",
    )
    .option('--pdfa', 'PDF/A-2b output')
    .option('--locale <tag>', 'locale for dates, numbers and booleans (da, en, sv, nb, de, ...)')
    .option('--time-zone <zone>', 'IANA time zone for date-times with an offset')
    .option(
      '--delimiters <pair>',
      'tag delimiters, start and end separated by a space, such as "{{ }}"',
    )
    .option(
      '--strict',
      'refuse values for tags the template does not have (library documents always are); a tag the template shows needs a value either way',
    )
    .option('--timeout <ms>', 'how long to wait for the result', '120000')
    .option(
      '--company <id>',
      "the company the documents are for: companies' jobs take turns (default: none, one shared line)",
    )
    .option('--json', 'print the result, or the typed failure {error, details}, as JSON')
    .addHelpText(
      'after',
      "\nA template takes its locale, time zone, delimiters and declared fields from its folder's document.json\n" +
        '(a library document from the library\'s), as "docpipe render" does; the flags override them. Every field\n' +
        'a library document shows needs a value.\n' +
        '\nUses REDIS_URL, or the Redis of a running "docpipe start".\n' +
        'Exit status: 0 rendered, 1 typed failure, 2 bad usage (or no Redis set), 3 Redis does not answer or no\n' +
        'worker is running (nothing was queued; try again once one runs).',
    )
    .action(async (input: string | undefined, flags: EnqueueFlags) =>
      (await import('../actions/enqueue.js')).runEnqueue(input, flags),
    );
}
