import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { servedOpenApi } from '../helpers/served-openapi.js';

/**
 * A client generated from /openapi.json (openapi-typescript, as a caller would generate one)
 * types the README's HTTP calls, and those of docs/http.md, as they are written there: the
 * request bodies they send and the members they read from each answer. A wrong call does not
 * type-check, so the check can fail.
 */

const root = projectRoot();
let dir: string;
/** The generated client, beside the calls that import it. */
const GENERATED = 'docpipe-api.ts';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  const doc = await servedOpenApi();
  writeFileSync(join(dir, GENERATED), astToString(await openapiTS(doc as never)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The README's HTTP block, word for word, to tie the calls below to what it says. */
function readmeHttpBlock(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## HTTP\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('the README has no shell block under "## HTTP"');
  return block;
}

const LEASE_TAGS = readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8');

/** The README's calls, and docs/http.md's library calls, typed with the generated paths. */
const README_CALLS = `
import type { paths } from './docpipe-api';

type Upload = paths['/v3/company/{company}/file/upload']['post'];
type Convert = paths['/api/v2/document/convert']['post'];
type Download = paths['/files/{key}']['get'];
type Presign = paths['/v3/company/{company}/file/view-presigned-url']['post'];
type List = paths['/v3/api/documents']['get'];
type One = paths['/v3/api/documents/{id}']['get'];

// URL=$(curl -F file=@templates/lease/template.docx -F name=Lease $DP/v3/company/acme/file/upload | ... .url)
const uploadAt: Upload['parameters']['path'] = { company: 'acme' };
const upload: Upload['requestBody']['content']['multipart/form-data'] = {
  file: '<the bytes of templates/lease/template.docx>',
  name: 'Lease',
};
declare const uploaded: Upload['responses'][200]['content']['application/json'];
const URL: string = uploaded.url;

// PDF=$(curl -d '{"documents": [{"file": "$URL", "name": "Lease"}], "tags": ...}' $DP/api/v2/document/convert | ... .documents[0].file)
const convert: Convert['requestBody']['content']['application/json'] = {
  documents: [{ file: URL, name: 'Lease' }],
  tags: ${LEASE_TAGS.trim()},
};
declare const converted: Convert['responses'][200]['content']['application/json'];
const PDF: string = converted.documents[0].file;

// curl -o lease.pdf "$PDF": a signed URL, /files/<key>?expires=...&signature=...
const download: Download['parameters'] = {
  path: { key: 'companies/acme/renders/ab/abcdef.pdf' },
  query: { expires: '1767225600', signature: 'c0ffee' },
};
declare const pdf: Download['responses'][200]['content']['application/octet-stream'];

// curl -d '{"url": "$URL"}' $DP/v3/company/acme/file/view-presigned-url   # {key, signedUrl, type, cached}
const presign: Presign['requestBody']['content']['application/json'] = { url: URL };
declare const presigned: Presign['responses'][200]['content']['application/json'];
const { key, signedUrl, type, cached }: { key: string; signedUrl: string; type: string; cached: boolean } =
  presigned;

// GET /v3/api/documents: id, name, description, versions, currentVersion
declare const library: List['responses'][200]['content']['application/json'];
const listed: { id: string; name: string; description?: string; versions: string[]; currentVersion: string }[] =
  library.documents;

// GET /v3/api/documents/{id}: its fields (tag, kind, count, within)
const one: One['parameters']['path'] = { id: 'lease' };
declare const lease: One['responses'][200]['content']['application/json'];
const fields: { tag: string; kind: string; count: number; within: string[] }[] = lease.document.fields;

export { uploadAt, upload, PDF, download, pdf, presign, key, signedUrl, type, cached, listed, one, fields };
`;

/** Calls the document does not take, each with what the compiler says of it. */
const WRONG_CALLS: { what: string; code: string; says: RegExp }[] = [
  {
    what: 'a convert whose document has no name',
    code: `const body: paths['/api/v2/document/convert']['post']['requestBody']['content']['application/json'] =
      { documents: [{ file: 'https://x' }] };`,
    says: /Property 'name' is missing/,
  },
  {
    what: 'a member the convert answer does not have',
    code: `declare const answer: paths['/api/v2/document/convert']['post']['responses'][200]['content']['application/json'];
    const url: string = answer.documents[0].url;`,
    says: /Property 'url' does not exist/,
  },
  {
    what: 'a download without its key',
    code: `const call: paths['/files/{key}']['get']['parameters'] = { path: {}, query: {} };`,
    says: /Property 'key' is missing/,
  },
];

/** The TypeScript compiler's diagnostics for each file and the generated client, by file name. */
function typeCheck(files: Record<string, string>): Record<string, string[]> {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((name) => join(dir, name)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts'],
      types: [],
      skipLibCheck: true,
    },
  );
  // The generated client is checked too: it is in the program, imported by each file.
  return Object.fromEntries(
    [GENERATED, ...Object.keys(files)].map((name) => {
      const source = program.getSourceFile(join(dir, name))!;
      const diagnostics = [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ];
      return [name, diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))];
    }),
  );
}

describe('a client generated from the OpenAPI document', () => {
  it("types the README's HTTP calls as the README makes and reads them", () => {
    // The calls typed here are the README's: its paths, what it sends and what it reads.
    const block = readmeHttpBlock();
    for (const said of [
      '$DP/v3/company/acme/file/upload',
      '-F file=@templates/lease/template.docx -F name=Lease',
      ".url')",
      '\\"documents\\": [{\\"file\\": \\"$URL\\", \\"name\\": \\"Lease\\"}]',
      'templates/lease/fixtures/basic.tags.json',
      '$DP/api/v2/document/convert',
      ".documents[0].file')",
      'curl -s -o lease.pdf "$PDF"',
      '\\"url\\": \\"$URL\\"',
      '$DP/v3/company/acme/file/view-presigned-url',
      '{key, signedUrl, type, cached}',
    ])
      expect(block).toContain(said);
    const docs = readFileSync(join(root, 'docs/http.md'), 'utf8');
    expect(docs).toContain(
      '`GET /v3/api/documents` lists the library: `id`, `name`, `description`, `versions`,',
    );
    expect(docs).toContain('`fields[]` (`tag`, `kind`, `count`, `within`)');

    expect(typeCheck({ 'readme-calls.ts': README_CALLS })).toEqual({
      [GENERATED]: [],
      'readme-calls.ts': [],
    });
  });

  it('refuses calls the document does not take', () => {
    const found = typeCheck(
      Object.fromEntries(
        WRONG_CALLS.map(({ code }, i) => [
          `wrong-${i}.ts`,
          `import type { paths } from './docpipe-api';\n${code}\nexport {};\n`,
        ]),
      ),
    );
    const said = WRONG_CALLS.map(({ what }, i) => [what, found[`wrong-${i}.ts`]!.join('\n')]);
    const expected = WRONG_CALLS.map(({ what, says }): [string, unknown] => [
      what,
      expect.stringMatching(says),
    ]);
    expect(said).toEqual(expected);
  });
});
