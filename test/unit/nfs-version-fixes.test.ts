import { describe, expect, it } from 'vitest';
import { applyEdits, type Diagnostic } from '../../server/src/core';
import { lintMounts } from './nfsVersionWorkspace';

/**
 * Three rules judge a mount's NFS version and offer fixes on the same option: ANF211 (not pinned, or
 * a version ANF never serves), ANF220 (the version does not suit the workload) and ANF224 (the
 * manifest volume does not serve it). Their fixes must never fight: none may pin a version the
 * volume does not serve, and following fixes one after another must end, never coming back to a
 * text it has already been through.
 */
const VERSION_RULES = ['ANF211', 'ANF220', 'ANF224'];

function lint(protocols: string, fstab: string): Diagnostic[] {
  return lintMounts(protocols, fstab).diagnostics.filter((d) => VERSION_RULES.includes(d.code));
}

const only = (diagnostics: readonly Diagnostic[], code: string) => diagnostics.filter((d) => d.code === code);

function line(workload: string, source: string, type: string, options: string): string {
  return `${workload ? `# anf: workload=${workload}\n` : ''}${source}  /data  ${type}  rw,hard${options ? `,${options}` : ''},_netdev  0  0\n`;
}

describe('ANF211, ANF220 and ANF224 fixes agree', () => {
  // '(no volume)': the mount reaches no manifest volume, so only the workload speaks.
  const VOLUMES = ['[NFSv3]', '[NFSv4.1]', '[NFSv3, NFSv4.1]', '[SMB]', '(no protocols)', '(no volume)'];
  const MOUNTS = [
    ['nfs', ''],
    ['nfs', 'vers=3'],
    ['nfs', 'nfsvers=3'],
    ['nfs', 'vers=4.1'],
    ['nfs', 'vers=4,minorversion=1'],
    ['nfs', 'vers=4'],
    ['nfs', 'vers=4.2'],
    ['nfs', 'vers=4,minorversion=2'],
    ['nfs', 'vers=2'],
    ['nfs4', ''],
    ['nfs4', 'minorversion=1'],
    ['nfs4', 'minorversion=2'],
    ['nfs4', 'vers=4.1'],
  ] as const;
  const WORKLOADS = ['', 'sap-hana-data', 'sap-hana-shared', 'eda-tools', 'general'];
  const cases = VOLUMES.flatMap((v) =>
    MOUNTS.flatMap(([type, options]) => WORKLOADS.map((w) => [v, type, options || '(none)', w || '(none)'] as const)),
  );

  it.each(cases)(
    'volume %s, %s %s, workload %s: no fix pins an unserved version, and fixes never go round in circles',
    (volume, type, options, workload) => {
      const protocols = volume.startsWith('(') ? '' : volume;
      const source = volume === '(no volume)' ? '10.9.9.9:/elsewhere' : '10.0.0.4:/data';
      const start = line(workload === '(none)' ? '' : workload, source, type, options === '(none)' ? '' : options);

      // Every path of fixes (any fix of any finding), depth first; a path that comes back to a text
      // it has been through is a flip-flop.
      const visit = (text: string, path: readonly { step: string; text: string }[]): void => {
        const steps = path.map((p) => p.step);
        expect(path.length, `fixes do not end: ${steps.join(' → ')}`).toBeLessThan(4);
        for (const diagnostic of lint(protocols, text)) {
          for (const fix of diagnostic.fixes) {
            const step = `${diagnostic.code} "${fix.title}"`;
            const fixed = applyEdits(text, fix.edits).text;
            expect(
              [start, ...path.map((p) => p.text)],
              `${[...steps, step].join(' → ')} comes back to an earlier text`,
            ).not.toContain(fixed);
            const after = lint(protocols, fixed);
            // A version the volume does not serve fails to mount: no fix may lead there.
            expect(
              only(after, 'ANF224').map((d) => d.message),
              `after ${step}`,
            ).toEqual([]);
            expect(
              only(after, diagnostic.code).map((d) => d.message),
              `${step} does not settle its own finding`,
            ).toEqual([]);
            visit(fixed, [...path, { step, text: fixed }]);
          }
        }
      };
      visit(start, []);
    },
  );
});

describe('ANF220 on a volume that does not serve the version the workload wants', () => {
  it('keeps its error for SAP HANA data on NFSv3, without a fix, and asks to change the volume', () => {
    const diagnostics = lint('[NFSv3]', line('sap-hana-data', '10.0.0.4:/data', 'nfs', 'vers=3'));
    const [finding] = only(diagnostics, 'ANF220');
    expect(finding?.severity).toBe('error');
    expect(finding?.fixes).toEqual([]);
    expect(finding?.message).toContain(
      'and change the `protocols` of volume `data` (estate.anf.yaml) too: it serves only NFSv3',
    );
    expect(only(diagnostics, 'ANF224')).toEqual([]);
  });

  it("keeps its warning for EDA on NFSv4.1 without a fix, so ANF224's fix to vers=4.1 is not undone", () => {
    const start = line('eda-tools', '10.0.0.4:/data', 'nfs', 'vers=3');
    const [notServed] = only(lint('[NFSv4.1]', start), 'ANF224');
    expect(notServed?.fixes[0]?.title).toContain('vers=4.1');
    const fixed = applyEdits(start, notServed!.fixes[0]!.edits).text;
    expect(fixed).toContain('vers=4.1');
    const after = lint('[NFSv4.1]', fixed);
    const [forWorkload] = only(after, 'ANF220');
    expect(forWorkload?.severity).toBe('warning');
    expect(forWorkload?.fixes).toEqual([]);
    expect(forWorkload?.message).toContain('it serves only NFSv4.1, so `vers=3` alone fails to mount');
    expect(only(after, 'ANF224')).toEqual([]);
  });

  it.each([
    ['the volume serves both versions', '[NFSv3, NFSv4.1]', '10.0.0.4:/data'],
    ['the mount reaches no volume', '[NFSv3]', '10.9.9.9:/elsewhere'],
  ])('still fixes when %s', (_name, protocols, source) => {
    const [finding] = only(lint(protocols, line('sap-hana-data', source, 'nfs', 'vers=3')), 'ANF220');
    expect(finding?.fixes.map((f) => f.title)).toEqual(['Use vers=4.1']);
    expect(finding?.message).not.toContain('protocols');
  });
});

describe('ANF211 pins the version the volume serves', () => {
  const fixesOf = (protocols: string, text: string) =>
    only(lint(protocols, text), 'ANF211').flatMap((d) =>
      d.fixes.map((f) =>
        applyEdits(text, f.edits)
          .text.match(/(?:vers|minorversion)=[\d.]+/g)
          ?.join(','),
      ),
    );

  it.each([
    // [protocols, source, type, options, workload, the options after each fix]
    ['[NFSv3]', '10.0.0.4:/data', 'nfs', '', '', ['vers=3']],
    ['[NFSv3]', '10.0.0.4:/data', 'nfs', '', 'sap-hana-data', ['vers=3']],
    ['[NFSv4.1]', '10.0.0.4:/data', 'nfs', '', 'eda-tools', ['vers=4.1']],
    ['', '10.0.0.4:/data', 'nfs', 'vers=4', '', ['vers=3']],
    ['[NFSv3]', '10.0.0.4:/data', 'nfs', 'vers=4.2', 'sap-hana-shared', ['vers=3']],
    ['[NFSv3]', '10.0.0.4:/data', 'nfs', 'vers=4,minorversion=2', '', ['vers=3']],
    ['[NFSv3]', '10.0.0.4:/data', 'nfs4', '', '', []],
    ['[NFSv3]', '10.0.0.4:/data', 'nfs4', 'minorversion=2', '', []],
    ['[SMB]', '10.0.0.4:/data', 'nfs', '', 'eda-tools', []],
    // Both versions served, or no volume: as before (the workload's version, else both, NFSv3 first).
    ['[NFSv3, NFSv4.1]', '10.0.0.4:/data', 'nfs', '', 'eda-tools', ['vers=3', 'vers=4.1']],
    ['[NFSv3, NFSv4.1]', '10.0.0.4:/data', 'nfs', 'vers=4.2', 'eda-tools', ['vers=4.1']],
    ['[NFSv3]', '10.9.9.9:/elsewhere', 'nfs', '', 'sap-hana-data', ['vers=4.1', 'vers=3']],
    ['[NFSv3]', '10.9.9.9:/elsewhere', 'nfs', 'vers=4', '', ['vers=4.1']],
  ] as const)('volume %s, %s %s %s, workload %s', (protocols, source, type, options, workload, expected) => {
    expect(fixesOf(protocols, line(workload, source, type, options))).toEqual(expected);
  });

  it('says why it offers nothing for an nfs4 mount of an NFSv3 volume', () => {
    const [finding] = only(lint('[NFSv3]', line('', '10.0.0.4:/data', 'nfs4', '')), 'ANF211');
    expect(finding?.message).toContain(
      'volume `data` (estate.anf.yaml) serves only NFSv3: the mount fails. Mount it as `nfs` with `vers=3`',
    );
  });
});
