import { createHash } from 'node:crypto';

/**
 * The named pipes of LibreOffice (osl/unx/pipe.cxx) are sockets in /tmp, whatever TMPDIR says:
 * `/tmp/OSL_PIPE_<uid>_<name>`. An office removes them when it shuts itself down, never when it
 * is killed, and docpipe always kills its offices; so docpipe removes them itself.
 */
export function oslPipePath(name: string): string {
  return `/tmp/OSL_PIPE_${process.getuid?.() ?? 0}_${name}`;
}

/**
 * The pipe every soffice opens so that a second soffice on the same profile hands its arguments
 * to the first (desktop/source/app/officeipcthread.cxx): `SingleOfficeIPC_` and the MD5 of the
 * profile's URL as LibreOffice holds it (UTF-16), each byte in hex without a leading zero.
 */
export function singleOfficePipeName(profileUrl: string): string {
  const md5 = createHash('md5').update(Buffer.from(profileUrl, 'utf16le')).digest();
  return `SingleOfficeIPC_${[...md5].map((byte) => byte.toString(16)).join('')}`;
}

/**
 * Every socket an office process creates in /tmp: the one for its profile and, with
 * `--accept=pipe,name=<acceptName>`, the one docpipe's UNO bridge connects through.
 */
export function officePipeSockets(profileUrl: string, acceptName?: string): string[] {
  return [
    oslPipePath(singleOfficePipeName(profileUrl)),
    ...(acceptName ? [oslPipePath(acceptName)] : []),
  ];
}
