import { readFileSync } from 'node:fs';
import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { describe, expect, it, vi } from 'vitest';
import {
  DOCXTEMPLATER_VERSION,
  checkDocxtemplaterInternals,
  docxtemplaterInternalsProblems,
  installedDocxtemplaterVersion,
} from '../../src/document/fill/docxtemplater-internals.js';
import { DEFAULT_DELIMITERS, compileTemplate } from '../../src/document/fill/index.js';
import { type ResolvedTag } from '../../src/document/values/index.js';
import { openDocx } from '../../src/formats/sniff/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';

const readJson = (path: string) =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };

type Options = Docxtemplater.DXT.ConstructorOptions;

describe('docxtemplater internals', () => {
  it('is pinned exactly, and the installed version is the pinned one', () => {
    const pkg = readJson('../../package.json');
    const installed = readJson('../../node_modules/docxtemplater/package.json');
    expect(pkg.dependencies['docxtemplater']).toBe(DOCXTEMPLATER_VERSION);
    expect(installed.version).toBe(DOCXTEMPLATER_VERSION);
    expect(installedDocxtemplaterVersion()).toBe(DOCXTEMPLATER_VERSION);
  });

  it('behave as docpipe uses them in the installed version', () => {
    expect(docxtemplaterInternalsProblems()).toEqual([]);
    expect(() => checkDocxtemplaterInternals()).not.toThrow();
  });

  it('refuses another version with an error naming both and what to do', () => {
    expect(() => checkDocxtemplaterInternals(Docxtemplater, '3.72.0')).toThrow(
      new Error(
        `docpipe needs docxtemplater ${DOCXTEMPLATER_VERSION} exactly (it uses internals of it, ` +
          'listed in src/document/fill/docxtemplater-internals.ts): version 3.72.0 is installed, not ' +
          `${DOCXTEMPLATER_VERSION}. Install the version package.json names (npm ci).`,
      ),
    );
  });

  it('names each internal that moved', () => {
    // The compiled parts and the content types under other names (render() compiles again).
    class Moved extends Docxtemplater {
      constructor(zip: PizZip, options: Options) {
        super(zip, options);
        const self = this as unknown as Record<string, unknown>;
        self['compiledFiles'] = self['compiled'];
        self['compiled'] = {};
        self['invertedContentTypes'] = undefined;
      }
    }
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const problems = docxtemplaterInternalsProblems(Moved, DOCXTEMPLATER_VERSION);
    // With nothing under `compiled`, render() compiled again, through a deprecated path.
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/^Deprecated method "\.compile"/);
    warn.mockRestore();
    expect(problems).toEqual([
      "compiled['word/document.xml'].postparsed does not hold the tag {a} with its offset",
      'invertedContentTypes does not list the main document by its content type',
    ]);
  });

  it('notices when the flag no longer refuses a second render', () => {
    class Lenient extends Docxtemplater {
      override render(data?: unknown): this {
        (this as unknown as { rendered: boolean }).rendered = false;
        return super.render(data);
      }
    }
    expect(docxtemplaterInternalsProblems(Lenient, DOCXTEMPLATER_VERSION)).toEqual([
      'a second render() is not refused, so rendered is no longer the flag that refuses it',
    ]);
  });

  it('renders a compiled template again to the bytes of a fresh compile', () => {
    const pkg = () => openDocx(buildDocx({ body: para('Tenant: {name}') }));
    const values = (text: string) =>
      new Map<string, ResolvedTag>([
        ['name', { tag: 'name', type: 'text', index: 0, text, truthy: true }],
      ]);
    const cached = compileTemplate(pkg(), DEFAULT_DELIMITERS, 'template');
    const first = cached.render(values('Ann'), 'template');
    const again = cached.render(values('Bo'), 'template');
    expect(cached.reusable).toBe(true);
    const fresh = compileTemplate(pkg(), DEFAULT_DELIMITERS, 'template').render(
      values('Bo'),
      'template',
    );
    expect(again.equals(fresh)).toBe(true);
    expect(again.equals(first)).toBe(false);
  });
});
