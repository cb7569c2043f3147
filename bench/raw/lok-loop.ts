/**
 * Raw warm-loop baseline: LibreOfficeKit in-process, called through koffi.
 *
 * Usage: node dist/bench/raw/lok-loop.js <file.docx> <rounds> <warmup>
 *
 * Loads /usr/lib/libreoffice/program/libmergedlo.so, starts one LibreOfficeKit with a
 * fresh temporary user profile, converts the same .docx to PDF `warmup + rounds` times
 * (documentLoad, saveAs "pdf", document destroy), checks every PDF and prints one JSON line:
 *   {"kind":"lok","n":N,"p50":ms,"p95":ms,"mean":ms,"startMs":ms,"ok":N}
 * Times are per-document milliseconds over the `rounds` timed conversions; startMs is the
 * time from dlopen to a ready LibreOfficeKit handle.
 *
 * One LibreOfficeKit per process, not thread-safe: everything runs on the main thread.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import koffi from 'koffi';
import { isPdfFile, parseArgs, summarize } from './common.js';

const PROGRAM_DIR = '/usr/lib/libreoffice/program';
const MERGED_LIB = `${PROGRAM_DIR}/libmergedlo.so`;

/** Native pointers are BigInt values in koffi 3; NULL decodes as null (or 0n). */
type Ptr = bigint | null;

function isNull(p: Ptr): p is null {
  return p === null || p === 0n;
}

// Function-pointer prototypes of LibreOfficeKit.h (LibreOfficeKitClass / LibreOfficeKitDocumentClass).
const DestroyFn = koffi.proto('void lok_destroy(void *pThis)');
const DocumentLoadFn = koffi.proto('void *lok_documentLoad(void *pThis, const char *pURL)');
const GetErrorFn = koffi.proto('void *lok_getError(void *pThis)');
const FreeErrorFn = koffi.proto('void lok_freeError(void *pFree)');
const SaveAsFn = koffi.proto(
  'int lok_saveAs(void *pThis, const char *pUrl, const char *pFormat, const char *pFilterOptions)',
);

const PTR = koffi.sizeof('void *');
// LibreOfficeKitClass: { size_t nSize; destroy; documentLoad; getError; documentLoadWithOptions; freeError; ... }
const OFFICE_DESTROY = 1 * PTR;
const OFFICE_DOCUMENT_LOAD = 2 * PTR;
const OFFICE_GET_ERROR = 3 * PTR;
const OFFICE_FREE_ERROR = 5 * PTR;
// LibreOfficeKitDocumentClass: { size_t nSize; destroy; saveAs; ... }
const DOC_DESTROY = 1 * PTR;
const DOC_SAVE_AS = 2 * PTR;

/** Reads `pThis->pClass` (the first member of both LibreOfficeKit and LibreOfficeKitDocument). */
function classOf(pThis: bigint): bigint {
  const cls = koffi.decode(pThis, 'void *') as Ptr;
  if (isNull(cls)) throw new Error('LibreOfficeKit object without a class table');
  return cls;
}

/** Reads a function pointer out of a class table, checking it lies inside `nSize`. */
function slot(cls: bigint, offset: number): bigint {
  const nSize = Number(koffi.decode(cls, 'size_t') as number | bigint);
  if (offset + PTR > nSize) throw new Error(`LibreOfficeKit class too small for slot ${offset}`);
  const fn = koffi.decode(cls, offset, 'void *') as Ptr;
  if (isNull(fn)) throw new Error(`LibreOfficeKit class slot ${offset} is NULL`);
  return fn;
}

function officeError(office: bigint): string {
  const cls = classOf(office);
  const err = koffi.call(slot(cls, OFFICE_GET_ERROR), GetErrorFn, office) as Ptr;
  if (isNull(err)) return '(no error text)';
  const text = koffi.decode.string(err);
  koffi.call(slot(cls, OFFICE_FREE_ERROR), FreeErrorFn, err);
  return text;
}

function main(): void {
  const { docx, rounds, warmup } = parseArgs('lok-loop.js', process.argv.slice(2));
  const work = mkdtempSync(join(tmpdir(), 'docpipe-raw-lok-'));
  const profileDir = join(work, 'profile');
  const outDir = join(work, 'out');
  mkdirSync(profileDir);
  mkdirSync(outDir);

  let office: bigint | undefined;
  let failed = false;
  try {
    const started = performance.now();
    const lib = koffi.load(MERGED_LIB);
    const hookFn = lib.func(
      'void *libreofficekit_hook_2(const char *pInstallPath, const char *pUserProfileUrl)',
    );
    const handle = hookFn(PROGRAM_DIR, pathToFileURL(profileDir).href) as Ptr;
    if (isNull(handle)) throw new Error('libreofficekit_hook_2 returned NULL');
    office = handle;
    const officeClass = classOf(office);
    const documentLoad = slot(officeClass, OFFICE_DOCUMENT_LOAD);
    const startMs = performance.now() - started;

    const inUrl = pathToFileURL(docx).href;
    const times: number[] = [];
    let ok = 0;
    for (let i = 0; i < warmup + rounds; i++) {
      const outPath = join(outDir, `out-${i}.pdf`);
      const outUrl = pathToFileURL(outPath).href;
      const t0 = performance.now();
      const doc = koffi.call(documentLoad, DocumentLoadFn, office, inUrl) as Ptr;
      if (isNull(doc)) throw new Error(`documentLoad failed: ${officeError(office)}`);
      const docClass = classOf(doc);
      let saved: number;
      try {
        saved = koffi.call(slot(docClass, DOC_SAVE_AS), SaveAsFn, doc, outUrl, 'pdf', '') as number;
      } finally {
        koffi.call(slot(docClass, DOC_DESTROY), DestroyFn, doc);
      }
      const elapsed = performance.now() - t0;
      const good = saved !== 0 && isPdfFile(outPath);
      if (saved === 0) process.stderr.write(`saveAs ${i} failed: ${officeError(office)}\n`);
      else unlinkSync(outPath);
      if (i >= warmup) {
        times.push(elapsed);
        if (good) ok++;
      } else if (!good) {
        process.stderr.write(`warm-up conversion ${i} produced no valid PDF\n`);
      }
    }
    const result = summarize('lok', times, startMs, ok);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    failed = ok !== times.length;
  } catch (err) {
    process.stderr.write(`lok-loop: ${err instanceof Error ? err.message : String(err)}\n`);
    failed = true;
  } finally {
    if (office !== undefined) {
      koffi.call(slot(classOf(office), OFFICE_DESTROY), DestroyFn, office);
    }
    rmSync(work, { recursive: true, force: true });
  }
  // LibreOfficeKit leaves threads behind after destroy; do not wait for the event loop.
  process.exit(failed ? 1 : 0);
}

main();
