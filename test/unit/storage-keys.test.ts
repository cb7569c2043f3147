import { describe, expect, it } from 'vitest';
import {
  checkKey,
  documentMetaKey,
  jobInputKey,
  parseStorageKey,
  renderKey,
  renderMarkerKey,
  renderPlacesKey,
  storedDocumentKey,
} from '../../src/render/storage/index.js';
import { classifyKey, groupKeys } from '../../src/jobs/retention/object-kinds.js';

const SHA = 'ab'.repeat(32);
const HASH = `c7${'0f'.repeat(31)}`;

describe('storage keys: one module builds and reads every kind', () => {
  it('reads back each kind it builds, with what it was built from', () => {
    const upload = storedDocumentKey('Acme_Co.2', SHA, 'docx');
    const built = [
      upload,
      documentMetaKey(upload),
      jobInputKey(SHA),
      renderKey(HASH),
      renderMarkerKey(HASH),
    ];
    expect(built).toEqual([
      `companies/${Buffer.from('Acme_Co.2').toString('hex')}/uploads/${SHA}.docx`,
      `companies/${Buffer.from('Acme_Co.2').toString('hex')}/uploads/${SHA}.docx.meta.json`,
      `uploads/${SHA}.bin`,
      `renders/c7/${HASH}.pdf`,
      `renders/c7/${HASH}.kept`,
    ]);
    // Every key docpipe builds is a key storage takes.
    for (const key of built) expect(checkKey(key)).toBe(key);
    expect(built.map(parseStorageKey)).toEqual([
      {
        kind: 'upload',
        key: upload,
        company: 'Acme_Co.2',
        id: `${SHA}.docx`,
        sha256: SHA,
        type: 'docx',
      },
      { kind: 'upload-name', key: documentMetaKey(upload), of: upload },
      { kind: 'job-input', key: `uploads/${SHA}.bin`, sha256: SHA },
      { kind: 'render', key: renderKey(HASH), hash: HASH },
      { kind: 'render-marker', key: renderMarkerKey(HASH), hash: HASH, of: renderKey(HASH) },
    ]);
  });

  it('refuses to build a key from what is not a hash or a company', () => {
    for (const build of [
      () => jobInputKey('nope'),
      () => renderKey(SHA.toUpperCase()),
      () => renderMarkerKey(SHA.slice(1)),
      () => storedDocumentKey('acme', `${SHA}0`, 'pdf'),
    ])
      expect(build).toThrow('not a sha256 in hex');
    for (const company of ['', 'x'.repeat(129)])
      expect(() => storedDocumentKey(company, SHA, 'pdf')).toThrow(/company id/);
  });

  it('reads no foreign key as one of its own', () => {
    const foreign = [
      'readiness/probe',
      'renders/readme.txt',
      `renders/ab/${SHA}.png`,
      // The folder is not the hash's first two characters.
      `renders/cd/${SHA}.pdf`,
      `renders/ab/${SHA}.kept.meta.json`,
      `renders/${SHA}.pdf`,
      `uploads/${SHA}.pdf`,
      `uploads/${SHA.slice(2)}.bin`,
      `uploads/nested/${SHA}.bin`,
      // 0xff is not UTF-8: no company id encodes to it.
      `companies/ff/uploads/${SHA}.pdf`,
      `companies/61636d6/uploads/${SHA}.pdf`,
      `companies/61636d65/uploads/${SHA}.exe`,
      `companies/61636d65/files/${SHA}.pdf`,
      `companies/61636d65/uploads/${SHA}.pdf.meta`,
      // A name sidecar counts only beside an upload.
      `uploads/${SHA}.bin.meta.json`,
      `renders/ab/${SHA}.pdf.meta.json`,
    ];
    expect(foreign).toHaveLength(16);
    for (const key of foreign) expect(parseStorageKey(key), key).toBeUndefined();
  });

  it('is what retention sorts by: a group and its companions, and nothing foreign', () => {
    const upload = storedDocumentKey('acme', SHA, 'pdf');
    expect(classifyKey(documentMetaKey(upload))).toEqual({ kind: 'uploads', group: upload });
    expect(groupKeys('uploads', upload)).toEqual([upload, documentMetaKey(upload)]);
    expect(classifyKey(renderMarkerKey(HASH))).toEqual({ kind: 'renders', group: renderKey(HASH) });
    expect(groupKeys('renders', renderKey(HASH))).toEqual([
      renderKey(HASH),
      renderMarkerKey(HASH),
      renderPlacesKey(HASH),
    ]);
    expect(classifyKey(renderPlacesKey(HASH))).toEqual({ kind: 'renders', group: renderKey(HASH) });
    expect(classifyKey(jobInputKey(SHA))).toEqual({ kind: 'job-inputs', group: jobInputKey(SHA) });
    expect(classifyKey(`renders/cd/${SHA}.pdf`)).toEqual({
      kind: 'other',
      group: `renders/cd/${SHA}.pdf`,
    });
  });
});
