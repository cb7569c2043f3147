import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import {
  CLOSED_PROXY,
  allocatorLibrary,
  fillOfficePoolOptions,
  hardenedRegistry,
  officePipeSockets,
  singleOfficePipeName,
} from '../../src/render/convert/index.js';
import { officeEnvironment } from '../../src/render/convert/office-profile.js';

describe('office allocator option', () => {
  it('preloads nothing for system, jemalloc for auto when it is installed, a given path as is', () => {
    expect(allocatorLibrary('system')).toBeUndefined();
    const auto = allocatorLibrary('auto');
    if (auto !== undefined) expect(auto).toMatch(/libjemalloc\.so\.2$/);
    expect(auto === undefined || existsSync(auto)).toBe(true);
    expect(allocatorLibrary('/opt/x/libtcmalloc.so')).toBe('/opt/x/libtcmalloc.so');
  });

  it('refuses a relative or missing library path', () => {
    expect(() => fillOfficePoolOptions({ allocator: 'libjemalloc.so.2' }, '/tmp')).toThrow(
      /allocator must be auto, system or the path of an existing malloc library/,
    );
    expect(() => fillOfficePoolOptions({ allocator: '/nonexistent/libx.so' }, '/tmp')).toThrow(
      /allocator/,
    );
    expect(fillOfficePoolOptions({ allocator: 'system' }, '/tmp').allocator).toBe('system');
  });
});

describe('hardened office profile', () => {
  const xcu = hardenedRegistry();
  const value = (path: string, name: string) =>
    new RegExp(
      `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>([^<]*)</value>`,
    ).exec(xcu)?.[1];

  it('never runs macros', () => {
    expect(
      value('/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution'),
    ).toBe('true');
    expect(value('/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel')).toBe(
      '3',
    );
  });

  it('blocks untrusted links and never updates links or fields on load', () => {
    expect(
      value('/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks'),
    ).toBe('true');
    // 0 is never (1 on request, 2 always), as Writer's own schema default of 1 = on request shows.
    expect(value('/org.openoffice.Office.Writer/Content/Update', 'Link')).toBe('0');
    expect(value('/org.openoffice.Office.Writer/Content/Update', 'Field')).toBe('false');
  });

  it('sends every proxied request to a closed port', () => {
    expect(value('/org.openoffice.Inet/Settings', 'ooInetProxyType')).toBe('1');
    for (const scheme of ['HTTP', 'HTTPS', 'FTP']) {
      expect(value('/org.openoffice.Inet/Settings', `ooInet${scheme}ProxyName`)).toBe(
        CLOSED_PROXY.host,
      );
      expect(value('/org.openoffice.Inet/Settings', `ooInet${scheme}ProxyPort`)).toBe(
        String(CLOSED_PROXY.port),
      );
    }
  });
});

describe('office environment', () => {
  it('sends FTP to the closed port with an ftp:// proxy, the only kind libxml2 takes', () => {
    // With http:// libxml2 printed "error : Unknown IO error" on every load and went direct.
    const env = officeEnvironment('/dev/shm/x');
    expect(env.ftp_proxy).toBe(`ftp://${CLOSED_PROXY.host}:${CLOSED_PROXY.port}`);
    expect(env.http_proxy).toBe(`http://${CLOSED_PROXY.host}:${CLOSED_PROXY.port}`);
    expect(env.https_proxy).toBe(`http://${CLOSED_PROXY.host}:${CLOSED_PROXY.port}`);
  });
});

describe('office sockets in /tmp', () => {
  it('names the profile pipe as LibreOffice 7.4 does: MD5 of the URL in UTF-16, bytes in hex without leading zeros', () => {
    // Seen in /tmp while soffice.bin ran with -env:UserInstallation=file:///tmp/docpipe-osl-vector-0
    // (MD5 0523b1208b470d3c...: the bytes 05 and 0d lose their zero).
    expect(singleOfficePipeName('file:///tmp/docpipe-osl-vector-0')).toBe(
      'SingleOfficeIPC_523b1208b47d3cf467e2ee63b143ac',
    );
  });

  it('lists the profile pipe and, for a pool process, its UNO pipe', () => {
    const uid = process.getuid?.() ?? 0;
    expect(officePipeSockets('file:///tmp/docpipe-osl-vector-0', 'docpipe-1-ab')).toEqual([
      `/tmp/OSL_PIPE_${uid}_SingleOfficeIPC_523b1208b47d3cf467e2ee63b143ac`,
      `/tmp/OSL_PIPE_${uid}_docpipe-1-ab`,
    ]);
    expect(officePipeSockets('file:///tmp/docpipe-osl-vector-0')).toHaveLength(1);
  });
});
