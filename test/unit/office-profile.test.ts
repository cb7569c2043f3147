import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import {
  CLOSED_PROXY,
  allocatorLibrary,
  fillOfficePoolOptions,
  hardenedRegistry,
} from '../../src/convert/index.js';

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
