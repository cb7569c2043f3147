// Renders the sample lease with its fixture values through docpipe's renderer, prints where the
// PDF is, and exits: everything docpipe starts (prepare threads, office processes) is closed.
//
//   node examples/render-lease.mjs [storage-folder]
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PreparePool, LocalStorage, OfficePool, Renderer, isDocpipeError } from 'docpipe';

const storage = new LocalStorage(process.argv[2] ?? 'data/storage');
const preparer = new PreparePool({ threads: 1 });
const office = await OfficePool.start({ processes: 1 }); // warm before it resolves
try {
  const renderer = new Renderer({ preparer, converter: office, storage });
  const lease = join(import.meta.dirname, '..', 'templates', 'lease');
  const template = await readFile(join(lease, 'template.docx'));
  const tags = JSON.parse(await readFile(join(lease, 'fixtures', 'basic.tags.json'), 'utf8'));
  const result = await renderer.render({ bytes: template, name: 'Lejekontrakt' }, tags, {
    field: 'documents[0]',
  });
  console.log(`${result.pages} pages: ${storage.pathOf(result.key)}`);
} catch (err) {
  if (!isDocpipeError(err)) throw err;
  console.error(JSON.stringify(err.toFailure()));
  process.exitCode = 1;
} finally {
  // Without these the process would not exit: office processes and threads keep it alive.
  await office.close();
  await preparer.close();
}
