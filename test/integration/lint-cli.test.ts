import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { resolveFont } from '../../src/formats/fonts/index.js';
import { INCLUDES, MAIL_MERGE, SELF_UPDATING } from '../../src/authoring/lint/field-codes.js';
import { lintTemplate, type TemplateReport } from '../../src/authoring/lint/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { ZipArchive, writeZip } from '../../src/formats/zip/index.js';
import { para, run } from '../helpers/docx-builder.js';
import {
  chartParts,
  complexField,
  doc,
  linkedImageParts,
  simpleField,
  textBoxParagraph,
  wordArtParagraph,
} from '../helpers/lint-docs.js';
import { pdfText } from '../helpers/pdf-text.js';
import { testDir } from '../helpers/test-dir.js';

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');

function docpipe(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd,
    env: { ...process.env, DOCPIPE_ENGINE_THREADS: '1', DOCPIPE_DATA_DIR: join(cwd, 'data') },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The package with its main part's XML changed by `edit`, every other part as it was. */
function editBody(docx: Buffer, edit: (xml: string) => string): Buffer {
  const archive = ZipArchive.open(docx);
  return writeZip(
    archive.entries.map((e) => {
      const data = archive.read(e);
      return {
        name: e.name,
        data: e.name === 'word/document.xml' ? Buffer.from(edit(data.toString('utf8'))) : data,
      };
    }),
  );
}

const UNKNOWN_FONT = 'Quillmark Unknown Serif';

/** What a new user does to a copy of the lease: a broken tag, a tracked change, a font. */
function spoil(xml: string): string {
  const once = (from: string, to: string) => {
    expect(xml.split(from)).toHaveLength(2);
    xml = xml.replace(from, to);
  };
  once('Udlejer: {landlord_name}, ', 'Udlejer: {landlord_name, ');
  once(
    'indtil det opsiges af en af parterne.</w:t></w:r>',
    'indtil det opsiges af en af parterne.</w:t></w:r><w:del w:id="1" w:author="Anne" w:date="2026-01-05T10:00:00Z"><w:r><w:delText> Opsigelse kræver ikke begrundelse.</w:delText></w:r></w:del>',
  );
  once(
    '<w:rPr><w:b/><w:sz w:val="28"/></w:rPr><w:t xml:space="preserve">Lejekontrakt for beboelse',
    `<w:rPr><w:rFonts w:ascii="${UNKNOWN_FONT}" w:hAnsi="${UNKNOWN_FONT}"/><w:b/><w:sz w:val="28"/></w:rPr><w:t xml:space="preserve">Lejekontrakt for beboelse`,
  );
  return xml;
}

describe('docpipe lint, as a new user meets it', () => {
  it('a copied library template with a broken tag, a tracked change and an unknown font: what and where', () => {
    const dir = testDir('docpipe-lint-');
    const folder = join(dir, 'my-lease');
    cpSync(join(root, 'templates', 'lease'), folder, { recursive: true });
    const template = join(folder, 'template.docx');
    writeFileSync(template, editBody(readFileSync(template), spoil));
    const shown = relative(dir, template);
    const replacement = resolveFont(UNKNOWN_FONT).replacement!;
    expect(resolveFont(UNKNOWN_FONT).metricCompatible).toBe(false);

    const human = docpipe(dir, 'lint', shown);
    expect(human.status).toBe(1);
    const lines = human.stdout.trim().split('\n');
    expect(lines.filter((l) => !l.startsWith('    fix: '))).toEqual([
      `${shown}  body ¶1   warning  font_not_installed  "Lejekontrakt for beboelse"  The font "${UNKNOWN_FONT}" is not installed: LibreOffice draws it with "${replacement}", which has other widths, so lines and pages break otherwise than in Word (a strict render refuses it).`,
      `${shown}  body ¶4   error    unclosed_tag        "Udlejer: {landlord_name, {landlord_address}."  The tag "{landlord_name," is not closed: "}" is missing after it, so docpipe cannot fill it.`,
      `${shown}  body ¶10  error    tracked_changes     "Opsigelse kræver ikke begrundelse."  Tracked changes (deleted "Opsigelse kræver ikke begrundelse."): the PDF shows them as Word shows markup, inserted text underlined in colour, deleted text struck through but still there to read, and a bar in the margin.`,
      `${shown}: 2 errors, 1 warning`,
    ]);
    expect(lines.filter((l) => l.startsWith('    fix: '))).toHaveLength(3);
    expect(human.stderr).toBe('');

    const json = docpipe(dir, 'lint', '--json', folder);
    expect(json.status).toBe(1);
    const reports = JSON.parse(json.stdout) as TemplateReport[];
    expect(reports.map((r) => [r.template, r.errors, r.warnings])).toEqual([[template, 2, 1]]);
    expect(reports[0]!.findings.map((f) => [f.id, f.part, f.paragraph])).toEqual([
      ['font_not_installed', 'body', 1],
      ['unclosed_tag', 'body', 4],
      ['tracked_changes', 'body', 10],
    ]);
  });

  it("a library folder's document.json sets the delimiters; --delimiters overrides it", () => {
    const welcome = join(root, 'templates', 'welcome-letter');
    const honoured = docpipe(root, 'lint', welcome);
    expect(honoured.status).toBe(0);
    expect(honoured.stdout).toBe(`${join(welcome, 'template.docx')}: no findings\n`);
    const overridden = docpipe(root, 'lint', '--json', welcome, '--delimiters', '{ }');
    expect(overridden.status).toBe(1);
    const [report] = JSON.parse(overridden.stdout) as TemplateReport[];
    // Every tag is {{name}}: one finding names the one cause, with the delimiter hint.
    expect(report!.errors).toBe(1);
    expect(report!.findings.map((f) => f.id)).toEqual(['double_brace_template']);
    expect(report!.findings[0]!.fix).toContain('"delimiters": "{{ }}"');
  });

  it('every library template lints clean', () => {
    const r = docpipe(root, 'lint', '--json', join(root, 'templates'));
    expect(r.status).toBe(0);
    const reports = JSON.parse(r.stdout) as TemplateReport[];
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports.filter((rep) => rep.findings.length > 0)).toEqual([]);
  });

  it('a broken document.json is a finding; warnings alone exit 0', () => {
    const dir = testDir('docpipe-lint-');
    writeFileSync(join(dir, 'template.docx'), doc(para('Price: ${amount}')));
    const warnings = docpipe(dir, 'lint', 'template.docx');
    expect(warnings.status).toBe(0);
    expect(warnings.stdout).toContain('template.docx: 0 errors, 1 warning');
    writeFileSync(join(dir, 'document.json'), JSON.stringify({ name: 'X', delimeters: '{ }' }));
    const broken = docpipe(dir, 'lint', '--json', '.');
    expect(broken.status).toBe(1);
    const [report] = JSON.parse(broken.stdout) as TemplateReport[];
    expect(report!.findings.map((f) => [f.id, f.part])).toEqual([
      ['invalid_document_json', 'document.json'],
      ['dollar_brace_tag', 'body'],
    ]);
    expect(report!.findings[0]!.explanation).toContain('delimeters');
  });

  it('bad usage is exit 2: an unknown option, a missing file, nothing to lint', () => {
    const dir = testDir('docpipe-lint-');
    expect(docpipe(dir, 'lint', '--strict', 'x.docx').status).toBe(2);
    const missing = docpipe(dir, 'lint', 'missing.docx');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read missing.docx');
    const empty = docpipe(dir, 'lint', '.');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('no template to lint');
  });

  it('--help shows examples and what the exit status means', () => {
    const help = docpipe(root, 'lint', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('docpipe lint templates/lease/template.docx');
    expect(help.stdout).toContain(
      'Exit status: 1 when any finding is an error, 0 when there are none or only warnings',
    );
  });
});

/** Fields as Word writes them: a DATE with a format, an ASK with its bookmark and prompt. */
const ARGUMENTS: Record<string, string> = {
  DATE: '\\@ "yyyy-MM-dd" ',
  ASK: 'answer "Your name?" ',
  MERGEFIELD: 'Client ',
  NEXTIF: 'Client = "x" ',
  SKIPIF: 'Client = "x" ',
};

describe('what LibreOffice prints, as lint says it does', () => {
  it('fields, text boxes, WordArt and charts rendered for real', { timeout: 180_000 }, () => {
    const dir = testDir('docpipe-lint-render-');
    const fields = [...Object.keys(SELF_UPDATING), ...Object.keys(MAIL_MERGE)];
    const chart = chartParts('Revenue for {company}');
    // A picture on this very machine, linked rather than stored: the office must not fetch it.
    // Beside it one stored in the document (another size), which must print.
    const png = (width: number) => {
      const image = new PNG({ width, height: 20 });
      image.data.fill(0x80);
      return PNG.sync.write(image);
    };
    writeFileSync(join(dir, 'logo.png'), png(41));
    const picture = linkedImageParts(pathToFileURL(join(dir, 'logo.png')).href);
    const stored = picture.paragraph.replace('rIdImg', 'rIdStored').replace('img1', 'img2');
    const body =
      fields
        .map((name) => {
          const instruction = ` ${name} ${ARGUMENTS[name] ?? ''}`;
          return `<w:p>${run(`${name}: `)}${simpleField(instruction, `CACHED-${name}`)}</w:p>`;
        })
        .join('') +
      `<w:p>${run('INCLUDETEXT: ')}${complexField(' INCLUDETEXT "http://127.0.0.1:9/terms.docx" ', 'CACHED-INCLUDETEXT')}</w:p>` +
      textBoxParagraph('Box for {client}') +
      wordArtParagraph('Offer for {client}') +
      picture.paragraph +
      stored +
      chart.paragraph;
    const template = doc(body, {
      extra: [...chart.extra!, { name: 'word/media/stored.png', data: png(40) }],
      rels: [
        ...chart.rels!,
        ...picture.rels!,
        `<Relationship Id="rIdStored" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/stored.png"/>`,
      ],
    });
    writeFileSync(join(dir, 'template.docx'), template);
    writeFileSync(
      join(dir, 'tags.json'),
      JSON.stringify([
        { tag: 'client', value: 'Alice', type: 'text' },
        { tag: 'company', value: 'Acme', type: 'text' },
      ]),
    );

    const found = lintTemplate(template, { fonts: false });
    const counts: Record<string, number> = {};
    for (const f of found) counts[f.id] = (counts[f.id] ?? 0) + 1;
    expect(counts).toEqual({
      self_updating_field: Object.keys(SELF_UPDATING).length,
      mail_merge_field: fields.length - Object.keys(SELF_UPDATING).length,
      external_link: 1,
      tag_in_text_box: 1,
      tag_in_chart: 1,
      linked_image: 1,
    });
    expect(INCLUDES.has('INCLUDETEXT')).toBe(true);

    const filled = docpipe(
      dir,
      'render',
      'template.docx',
      '--tags',
      'tags.json',
      '--out',
      'filled.docx',
    );
    expect(filled.status, filled.stderr).toBe(0);
    const filledXml = ZipArchive.open(readFileSync(join(dir, 'filled.docx')));
    const filledBody = filledXml.read('word/document.xml').toString('utf8');
    // The text box (both copies) is filled; WordArt's attribute and the chart are not.
    expect(filledBody.split('Box for Alice')).toHaveLength(3);
    expect(filledBody).toContain('string="Offer for {client}"');
    expect(filledXml.read('word/charts/chart1.xml').toString('utf8')).toContain(
      'Revenue for {company}',
    );

    const rendered = docpipe(
      dir,
      'render',
      'template.docx',
      '--tags',
      'tags.json',
      '--out',
      'out.pdf',
    );
    expect(rendered.status, rendered.stderr).toBe(0);
    const text = pdfText(readFileSync(join(dir, 'out.pdf')));
    const line = (name: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    for (const name of Object.keys(SELF_UPDATING)) {
      expect(line(name), name).toBeDefined();
      expect(line(name), name).not.toContain(`CACHED-${name}`);
    }
    // The day of the render, on the server's clock (UTC or local: the render may cross midnight).
    const day = (d: Date) => [d.toISOString().slice(0, 10), d.toLocaleDateString('en-CA')];
    expect([...day(new Date()), ...day(new Date(Date.now() - 600_000))]).toContain(line('DATE'));
    expect(['PRINTDATE', 'SAVEDATE', 'ASK'].map(line)).toEqual(['', '', '']);
    expect(['EDITTIME', 'NUMWORDS', 'NUMCHARS', 'REVNUM'].map(line)).toEqual([
      '00:00',
      '0',
      '0',
      '0',
    ]);
    for (const [name, shows] of Object.entries(MAIL_MERGE))
      expect(line(name), name).toBe(shows === 'last' ? `CACHED-${name}` : '');
    expect(line('INCLUDETEXT')).toBe('CACHED-INCLUDETEXT');
    expect(text).toContain('Box for Alice');
    expect(text).toContain('Revenue for {company}');
    // The stored picture prints; the linked one (41 pixels wide) does not.
    const images = execFileSync('pdfimages', ['-list', join(dir, 'out.pdf')], { encoding: 'utf8' });
    const widths = images
      .trim()
      .split('\n')
      .slice(2)
      .map((l) => l.trim().split(/\s+/))
      .filter((cols) => cols[2] === 'image')
      .map((cols) => Number(cols[3]));
    expect(widths).toEqual([40]);
  });
});
