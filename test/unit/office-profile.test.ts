import { describe, expect, it } from 'vitest';
import { CLOSED_PROXY, hardenedRegistry } from '../../src/convert/index.js';

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
