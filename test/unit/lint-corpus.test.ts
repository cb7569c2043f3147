import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintTemplate } from '../../src/authoring/lint/index.js';
import { sniffBytes } from '../../src/formats/sniff/index.js';
import { corpusRows } from '../helpers/corpus.js';

describe('lint over the corpus', () => {
  it(
    'every file lints without throwing; the file is refused exactly where sniffing refuses it',
    { timeout: 120_000 },
    () => {
      const rows = corpusRows();
      expect(rows.length).toBeGreaterThan(250);
      const disagreements: string[] = [];
      let accepted = 0;
      for (const row of rows) {
        const bytes = readFileSync(row.path);
        const found = lintTemplate(bytes, { fonts: false });
        const refused = found.filter((f) => f.part === 'package' && f.severity === 'error');
        const isDocx = sniffBytes(bytes).kind === 'docx';
        if (isDocx) accepted++;
        // A refused file is that one finding and nothing else.
        const agrees = isDocx ? refused.length === 0 : refused.length === 1 && found.length === 1;
        if (!agrees) disagreements.push(`${row.file}: ${found.map((f) => f.id).join(', ')}`);
        for (const f of found) {
          if (f.paragraph !== null && !(Number.isInteger(f.paragraph) && f.paragraph >= 1))
            disagreements.push(`${row.file}: ${f.id} at paragraph ${f.paragraph}`);
        }
      }
      expect(disagreements).toEqual([]);
      // Both kinds were there to agree on.
      expect(accepted).toBeGreaterThan(100);
      expect(rows.length - accepted).toBeGreaterThan(50);
    },
  );
});
