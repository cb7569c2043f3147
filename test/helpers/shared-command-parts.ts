import type * as CommandOfficeModule from '../../src/surfaces/cli/command-office.js';
import type * as PartsModule from '../../src/app/parts/index.js';
import type { Converter } from '../../src/render/convert/index.js';

type CommandOffice = typeof CommandOfficeModule;
type Parts = typeof PartsModule;
type Preparer = ReturnType<Parts['createPreparer']>;

/** What the file's commands started so far, by the settings they were started with. */
const offices = new Map<string, Promise<Converter>>();
const preparers = new Map<string, Preparer>();

/*
 * The office processes and prepare threads that render, check and preview start for themselves,
 * kept for a test file that runs those commands in-process (test/helpers/cli-in-process.ts) many
 * times: the first command's stay up for the later commands with the same settings, instead of
 * each command starting LibreOffice (about a second on two cores) and loading the prepare thread
 * (a few hundred ms), then closing them. What a command does with them is unchanged; its close
 * leaves them up, and a lazy office still starts nothing until a conversion needs it. The file
 * keeps a spawned run of the built CLI for what a command starts and closes itself. Used as
 * vi.mock factories, with `afterAll(closeSharedParts)`:
 *
 *     vi.mock(import('../../src/surfaces/cli/command-office.js'), async (original) =>
 *       (await import('../helpers/shared-command-parts.js')).sharingOffices(await original()),
 *     );
 *     vi.mock(import('../../src/app/parts/index.js'), async (original) =>
 *       (await import('../helpers/shared-command-parts.js')).sharingPreparers(await original()),
 *     );
 */

/** command-office.js whose offices are kept (see above). */
export function sharingOffices(original: CommandOffice): CommandOffice {
  return {
    ...original,
    commandOffice: async (config, options = {}) => {
      const processes = options.processes ?? config.office.processes ?? 1;
      // The command's own logger; the lazy converter made beside it never starts.
      const made = await original.commandOffice(config, { processes, lazy: true });
      await made.converter.close();
      const key = JSON.stringify([config.converter, { ...config.office, processes }]);
      const office = (): Promise<Converter> => {
        let kept = offices.get(key);
        if (!kept) {
          kept = original.commandOffice(config, { processes }).then((o) => o.converter);
          offices.set(key, kept);
          // A start that failed is that command's failure; the next command starts afresh.
          kept.catch(() => offices.delete(key));
        }
        return kept;
      };
      const name = options.lazy ? config.converter : (await office()).name;
      const converter: Converter = {
        name,
        convert: async (request) => (await office()).convert(request),
        close: () => Promise.resolve(),
      };
      return { converter, logger: made.logger };
    },
  };
}

/** app/parts whose prepare pools are kept (see above). */
export function sharingPreparers(original: Parts): Parts {
  return {
    ...original,
    createPreparer: (config, threads = config.prepareThreads) => {
      const key = JSON.stringify([threads, config.limits, config.values]);
      let kept = preparers.get(key);
      if (!kept) {
        kept = original.createPreparer(config, threads);
        preparers.set(key, kept);
      }
      const pool = kept;
      return new Proxy(pool, {
        get: (target, property) => {
          if (property === 'close') return () => Promise.resolve();
          const value: unknown = Reflect.get(target, property);
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
    },
  };
}

/** Closes every kept office and prepare pool: the file's afterAll. */
export async function closeSharedParts(): Promise<void> {
  const keptOffices = [...offices.values()];
  const keptPreparers = [...preparers.values()];
  offices.clear();
  preparers.clear();
  await Promise.all([
    ...keptOffices.map(async (office) => {
      const converter = await office.catch(() => undefined);
      await converter?.close();
    }),
    ...keptPreparers.map((preparer) => preparer.close()),
  ]);
}
