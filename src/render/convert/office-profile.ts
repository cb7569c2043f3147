import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Nothing listens here: every proxied request LibreOffice makes is refused at once. */
export const CLOSED_PROXY = { host: '127.0.0.1', port: 9 };

/**
 * `ftp_proxy` for office processes. libxml2's FTP client (started by xmlsec when LibreOffice
 * checks a document's signatures on load) takes only an ftp:// proxy: it refuses any other as
 * "error : Unknown IO error" on stderr and then goes without one. With ftp:// it goes to the
 * closed port like everything else, and curl, which has no ftp:// proxies, fails closed.
 */
export const FTP_PROXY = `ftp://${CLOSED_PROXY.host}:${CLOSED_PROXY.port}`;

const item = (path: string, name: string, value: string | number | boolean): string =>
  `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${String(value)}</value></prop></item>`;

/**
 * The user profile every office process starts from, written fresh for each process: macros
 * never run, links to other documents are never followed or updated, and every fetch goes to
 * a proxy at a closed port. Measured here: with a default profile a .docx with an external image
 * made LibreOffice fetch it; with this profile the canary saw no request.
 */
export function hardenedRegistry(): string {
  const security = '/org.openoffice.Office.Common/Security/Scripting';
  const inet = '/org.openoffice.Inet/Settings';
  const items = [
    item(security, 'MacroSecurityLevel', 3),
    item(security, 'DisableMacrosExecution', true),
    item(security, 'BlockUntrustedRefererLinks', true),
    item(security, 'WarnAlienFormat', false),
    item(inet, 'ooInetProxyType', 1),
    item(inet, 'ooInetHTTPProxyName', CLOSED_PROXY.host),
    item(inet, 'ooInetHTTPProxyPort', CLOSED_PROXY.port),
    item(inet, 'ooInetHTTPSProxyName', CLOSED_PROXY.host),
    item(inet, 'ooInetHTTPSProxyPort', CLOSED_PROXY.port),
    item(inet, 'ooInetFTPProxyName', CLOSED_PROXY.host),
    item(inet, 'ooInetFTPProxyPort', CLOSED_PROXY.port),
    item(inet, 'ooInetNoProxy', ''),
    // Writer: never update links or fields on load (INCLUDETEXT, INCLUDEPICTURE, DDE).
    // Writer's link modes: 0 never, 1 on request (the default), 2 always.
    item('/org.openoffice.Office.Writer/Content/Update', 'Link', 0),
    item('/org.openoffice.Office.Writer/Content/Update', 'Field', false),
    item('/org.openoffice.Office.Common/Misc', 'UseDocumentSystemFileLocking', false),
    item('/org.openoffice.Office.Common/Misc', 'UseLocking', false),
    item('/org.openoffice.Office.Common/Misc', 'ShowTipOfTheDay', false),
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n' +
    `${items.join('\n')}\n</oor:items>\n`
  );
}

/** Writes a fresh hardened profile under `dir` and returns its file URL for -env:UserInstallation. */
export async function writeHardenedProfile(dir: string): Promise<string> {
  await mkdir(join(dir, 'user'), { recursive: true });
  await writeFile(join(dir, 'user', 'registrymodifications.xcu'), hardenedRegistry());
  return `file://${dir}`;
}

/** Where Debian's libjemalloc2 puts its library, per architecture. */
const JEMALLOC_PATHS = [
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
];

/** The library to preload into soffice.bin for the `allocator` option; undefined: glibc's malloc. */
export function allocatorLibrary(allocator: string): string | undefined {
  if (allocator === 'system') return undefined;
  if (allocator === 'auto') return JEMALLOC_PATHS.find((path) => existsSync(path));
  return allocator;
}

/**
 * Environment for office processes: proxies at the closed port for anything that reads them,
 * and the preloaded malloc when there is one.
 */
export function officeEnvironment(profileDir: string, preload?: string): NodeJS.ProcessEnv {
  const proxy = `http://${CLOSED_PROXY.host}:${CLOSED_PROXY.port}`;
  return {
    ...(preload ? { LD_PRELOAD: preload } : {}),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: profileDir,
    // LibreOffice writes and fsyncs several temporary files per conversion; left to itself it
    // puts them in /tmp, on disk. Here they stay beside the profile (in memory, under /dev/shm),
    // private to this process and removed with it. The folder must exist: officeTempDir().
    TMPDIR: officeTempDir(profileDir),
    LANG: 'C.UTF-8',
    http_proxy: proxy,
    https_proxy: proxy,
    ftp_proxy: FTP_PROXY,
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    no_proxy: '',
    SAL_USE_VCLPLUGIN: 'svp',
  };
}

/** The temporary folder of the office process whose folder is `dir` (see officeEnvironment). */
export function officeTempDir(dir: string): string {
  return join(dir, 'tmp');
}

/**
 * Where LibreOffice extracts a document's embedded fonts (as `<family><style>.ttf`) and registers
 * them for the rest of the process's life, under the profile folder given to
 * writeHardenedProfile().
 */
export function embeddedFontsDir(profileDir: string): string {
  return join(profileDir, 'user', 'temp', 'embeddedfonts', 'fromdocs');
}

/**
 * The files in embeddedFontsDir(), empty when there is no such folder (the usual case: docpipe
 * removes embedded fonts before conversion). One stat and at most one readdir: it runs after every
 * conversion.
 */
export function extractedFontFiles(profileDir: string): string[] {
  const dir = embeddedFontsDir(profileDir);
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** The style LibreOffice appends to a family in an extracted font's file name (bold, italic, both). */
const EXTRACTED_STYLES = ['bi', 'b', 'i'];

/**
 * The families of extracted font files, for logs: `Calibri.ttf` and `Calibrib.ttf` are Calibri.
 * A style letter is dropped only when the family's regular file is there too, since a family can
 * end in one (Calibri); a bold file alone keeps its letter.
 */
export function extractedFontFamilies(files: readonly string[]): string[] {
  const names = new Set(files.map((f) => f.replace(/\.ttf$/i, '')));
  const family = (name: string) =>
    EXTRACTED_STYLES.map((s) => (name.endsWith(s) ? name.slice(0, -s.length) : '')).find(
      (base) => base !== '' && names.has(base),
    ) ?? name;
  return [...new Set([...names].map(family))].sort();
}
