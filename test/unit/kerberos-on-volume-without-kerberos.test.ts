import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/**
 * ANF225 (a Kerberos mount of a volume without Kerberos). The fixture
 * (test/fixtures/rules/ANF225-*) shows the messages and the cases left alone; this file checks
 * the guards and how it sits next to ANF224 on one mount.
 */
const config = resolveConfig();
const MANIFEST = 'file:///repo/estate.anf.yaml';
const FSTAB = 'file:///repo/etc/fstab';

function lint(volume: string, line: string) {
  const workspace = new Workspace(config);
  workspace.set(
    MANIFEST,
    `accounts:\n  - name: prod\n    pools:\n      - name: pool\n        serviceLevel: Premium\n        size: 4 TiB\n        volumes:\n          - name: data\n            quota: 1 TiB\n${volume}            mountTarget: 10.0.0.4\n            exportPath: /data\n`,
  );
  workspace.set(FSTAB, `${line}\n`);
  return visibleDiagnostics(lintFile(workspace, FSTAB, config));
}

const of = (code: string, diagnostics: ReturnType<typeof lint>) => diagnostics.filter((d) => d.code === code);

describe('ANF225 kerberos-on-volume-without-kerberos', () => {
  it.each([
    ['sec=krb5p', 'protocols: [NFSv4.1]', 1],
    ['sec=krb5p', 'protocols: [NFSv4.1]\n            security: krb5p', 0],
    ['sec=krb5i:krb5p', 'protocols: [NFSv4.1]\n            security: sys', 1],
    ['sec=krb5p:sys', 'protocols: [NFSv4.1]', 0],
    ['sec=sys', 'protocols: [NFSv4.1]\n            security: krb5p', 0],
    ['sec=krb5p,{{ extra_options }}', 'protocols: [NFSv4.1]', 0],
  ])('%s on a volume with %s: %i finding(s)', (sec, volume, count) => {
    const diagnostics = lint(
      `            ${volume}\n`,
      `10.0.0.4:/data  /data  nfs  rw,hard,vers=4.1,${sec},_netdev  0  0`,
    );
    expect(of('ANF225', diagnostics)).toHaveLength(count);
  });

  it('and ANF224 on one mount: NFSv4.1 with Kerberos to an NFSv3 volume without Kerberos, neither offers a fix', () => {
    const diagnostics = lint(
      '            protocols: [NFSv3]\n',
      '10.0.0.4:/data  /data  nfs  rw,hard,vers=4.1,sec=krb5p,_netdev  0  0',
    );
    const [notServed] = of('ANF224', diagnostics);
    const [noKerberos] = of('ANF225', diagnostics);
    expect(notServed?.fixes).toEqual([]);
    expect(notServed?.message).toContain('Kerberos (`sec=krb5*`) needs NFSv4.1');
    expect(noKerberos?.message).toContain('its `protocols` to NFSv4.1');
    expect(noKerberos?.fixes).toEqual([]);
  });
});
