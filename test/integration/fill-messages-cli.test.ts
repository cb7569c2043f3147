import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { testDir } from '../helpers/test-dir.js';

const cli = join(projectRoot(), 'dist', 'src', 'surfaces', 'cli', 'main.js');

function docpipe(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DOCPIPE_ENGINE_THREADS: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('docpipe: broken-template failures', () => {
  it('end with a pointer to docpipe lint, in text only; a value failure has none', () => {
    const dir = testDir('docpipe-fill-messages-');
    const template = join(dir, 'quote.docx');
    writeFileSync(
      template,
      buildDocx({ body: para('Accepted for {customer_name') + para('Signature') }),
    );
    const text = docpipe('fields', template);
    expect(text.status).toBe(1);
    expect(text.stderr).toBe(
      'document-production-failed\n' +
        '  template: The tag "{customer_name" is not closed: "}" is missing after it in body paragraph 1 (word/document.xml), near "Accepted for {customer_name"\n' +
        '  run "docpipe lint <template>" to see each problem with its fix\n',
    );
    const json = docpipe('fields', '--json', template);
    expect(json.status).toBe(1);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual({
      error: 'document-production-failed',
      details: [
        {
          field: 'template',
          message:
            'The tag "{customer_name" is not closed: "}" is missing after it in body paragraph 1 (word/document.xml), near "Accepted for {customer_name"',
        },
      ],
    });

    const good = join(dir, 'good.docx');
    writeFileSync(good, buildDocx({ body: para('{flag}') }));
    const tags = join(dir, 'tags.json');
    writeFileSync(tags, JSON.stringify([{ tag: 'flag', value: 'yes', type: 'boolean' }]));
    const bad = docpipe('render', good, '--tags', tags, '--out', join(dir, 'out.docx'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe(
      'validation-failed\n' +
        '  tags[0] (flag): "yes" is not true or false (give JSON true or false, or "true" or "false")\n',
    );
  });
});
