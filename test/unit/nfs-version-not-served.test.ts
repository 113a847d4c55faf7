import { describe, expect, it } from 'vitest';
import { applyEdits, type Diagnostic } from '../../server/src/core';
import { lintMounts, MANIFEST } from './nfsVersionWorkspace';

/**
 * ANF224 (the mount's NFS version is not one its manifest volume serves) next to ANF220 (the
 * version does not suit the workload): both may judge the same `vers=` option, and their fixes must
 * never pull it in opposite directions. The fixture (test/fixtures/rules/ANF224-*) shows the
 * messages; this file checks the interaction over every combination.
 */
const lint = lintMounts;

const codes = (diagnostics: readonly Diagnostic[], ...wanted: string[]) =>
  diagnostics.filter((d) => wanted.includes(d.code));

describe('ANF224 nfs-version-not-served', () => {
  const PROTOCOLS = ['[NFSv3]', '[NFSv4.1]', ''];
  const OPTIONS = ['vers=3', 'nfsvers=3', 'vers=4.1', 'vers=4,minorversion=1'];
  const WORKLOADS = ['', 'sap-hana-data', 'sap-hana-shared', 'eda-tools', 'general'];
  const cases = PROTOCOLS.flatMap((p) =>
    OPTIONS.flatMap((o) => WORKLOADS.map((w) => [p || '(none)', o, w || '(none)'] as const)),
  );

  it.each(cases)(
    'protocols %s, %s, workload %s: ANF220 and ANF224 agree, and the ANF224 fix leaves no error behind',
    (protocols, option, workload) => {
      const annotation = workload === '(none)' ? '' : `# anf: workload=${workload}\n`;
      const fstab = `${annotation}10.0.0.4:/data  /data  nfs  rw,hard,${option},_netdev  0  0\n`;
      const { diagnostics } = lint(protocols === '(none)' ? '' : protocols, fstab);
      const notServed = codes(diagnostics, 'ANF224');
      const forWorkload = codes(diagnostics, 'ANF220');
      const served = protocols === '(none)' ? ['3'] : protocols === '[NFSv3]' ? ['3'] : ['4.1'];
      const pinned = option.includes('4') ? '4.1' : '3';
      expect(notServed.length, 'ANF224 reports exactly the versions the volume does not serve').toBe(
        served.includes(pinned) ? 0 : 1,
      );

      // Both on one option: the same range and the same edits (ANF serves two versions, so the one
      // the volume lacks is the one the workload advises against).
      for (const other of forWorkload) {
        const same = notServed.find((d) => d.range.start.line === other.range.start.line);
        if (!same || same.fixes.length === 0) continue;
        expect(same.range).toEqual(other.range);
        expect(same.fixes[0]!.edits).toEqual(other.fixes[0]!.edits);
      }

      // Applying ANF224's fix: the mount works and no error (ANF220 on a required version) appears.
      const fix = notServed[0]?.fixes[0];
      if (fix) {
        expect(fix.applicability).toBe('unsafe');
        const fixed = applyEdits(fstab, fix.edits).text;
        const after = lint(protocols === '(none)' ? '' : protocols, fixed).diagnostics;
        expect(codes(after, 'ANF224')).toEqual([]);
        expect(codes(after, 'ANF220').filter((d) => d.severity === 'error')).toEqual([]);
      }
    },
  );

  it('reports a version the workload requires but offers no fix: the volume must change', () => {
    const { diagnostics } = lint(
      '[NFSv3]',
      '# anf: workload=sap-hana-log\n10.0.0.4:/data  /hana/log  nfs  rw,hard,vers=4.1,_netdev  0  0\n',
    );
    const [finding] = codes(diagnostics, 'ANF224');
    expect(finding?.severity).toBe('error');
    expect(finding?.fixes).toEqual([]);
    expect(finding?.message).toContain('needs NFSv4.1, so change the volume');
    expect(codes(diagnostics, 'ANF220')).toEqual([]);
  });

  it('reports NFSv4.1 with Kerberos on an NFSv3 volume without a fix (Kerberos needs NFSv4.1)', () => {
    const { diagnostics } = lint('[NFSv3]', '10.0.0.4:/data  /data  nfs  rw,hard,vers=4.1,sec=krb5p,_netdev  0  0\n');
    const [finding] = codes(diagnostics, 'ANF224');
    expect(finding?.fixes).toEqual([]);
    expect(finding?.message).toContain('Kerberos');
  });

  it("points its related information at the volume's protocols in the manifest", () => {
    const { diagnostics, workspace } = lint('[NFSv4.1]', '10.0.0.4:/data  /data  nfs  rw,hard,vers=3,_netdev  0  0\n');
    const related = codes(diagnostics, 'ANF224')[0]?.related ?? [];
    expect(related).toHaveLength(1);
    expect(related[0]!.uri).toBe(MANIFEST);
    const text = workspace.file(MANIFEST)!.source;
    const { start, end } = related[0]!.range;
    expect(text.text.slice(text.offsetAt(start), text.offsetAt(end))).toBe('[NFSv4.1]');
  });

  it.each([
    ['a volume that serves both versions', '[NFSv3, NFSv4.1]', 'rw,hard,vers=4.1'],
    ['an unpinned version (ANF211)', '[NFSv4.1]', 'rw,hard'],
    ['vers=4 alone (ANF211)', '[NFSv3]', 'rw,hard,vers=4'],
    ['a version ANF never serves (ANF211)', '[NFSv3]', 'rw,hard,vers=4.2'],
    ['a templated option list', '[NFSv4.1]', 'rw,hard,vers=3,{{ nfs_extra_options }}'],
  ])('says nothing about %s', (_name, protocols, options) => {
    const { diagnostics } = lint(protocols, `10.0.0.4:/data  /data  nfs  ${options},_netdev  0  0\n`);
    expect(codes(diagnostics, 'ANF224')).toEqual([]);
  });

  it('says nothing about a mount that reaches no manifest volume', () => {
    const { diagnostics } = lint('[NFSv4.1]', '10.9.9.9:/elsewhere  /elsewhere  nfs  rw,hard,vers=3,_netdev  0  0\n');
    expect(codes(diagnostics, 'ANF224')).toEqual([]);
  });
});
