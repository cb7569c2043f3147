// A module loader for child processes that tests start: they import docpipe's TypeScript source
// (src/**/*.ts, with the .js specifiers it uses) as vitest does, so that such a test needs no build
// and never runs a stale dist/. Started with `node --import <source-register.mjs>`.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** `./x.js` from a .ts file is `./x.ts` (or a template's `./x.tsx`) when only that exists, as tsc's NodeNext resolution reads it. */
export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (/\.tsx?$/.test(parent ?? '') && specifier.startsWith('.') && specifier.endsWith('.js')) {
    if (!existsSync(new URL(specifier, parent)))
      for (const ext of ['.ts', '.tsx']) {
        const source = new URL(`${specifier.slice(0, -'.js'.length)}${ext}`, parent);
        if (existsSync(source)) return { url: source.href, shortCircuit: true };
      }
  }
  return nextResolve(specifier, context);
}

/** A .ts file as JavaScript: its types removed, one file at a time (no type check). */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !/\.tsx?$/.test(url)) return nextLoad(url, context);
  const file = fileURLToPath(url);
  const { outputText } = ts.transpileModule(await readFile(file, 'utf8'), {
    fileName: file,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      sourceMap: false,
      inlineSourceMap: true,
      inlineSources: true,
      // Page templates (src/**/*.tsx), as tsconfig.json compiles them.
      jsx: ts.JsxEmit.ReactJSX,
      jsxImportSource: 'preact',
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
