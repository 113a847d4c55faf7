import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/** The NFS CSI driver (csi-driver-nfs): a PV's `volumeAttributes` and a StorageClass's `parameters` name the source (issue 28). */
const PATH = join(__dirname, '../fixtures/formats/carriers/kubernetes-csi/anf-csi-nfs.yaml');
const TEXT = readFileSync(PATH, 'utf8');

describe('NFS CSI driver volumes', () => {
  it('reads server and share as the mount source, with the mount options', () => {
    const mounts = parseFile(`file://${PATH}`, TEXT).mounts.filter((m) => m.origin === 'kubernetes');
    expect(mounts.map((m) => `${m.server}:${m.exportPath} ${m.options.map((o) => o.name).join(',')}`)).toEqual([
      '10.70.2.4:/models nfsvers,hard,rsize,wsize,sec',
      '10.70.2.4:/scratch nfsvers,soft',
    ]);
    expect(mounts.every((m) => !m.optionsOnly)).toBe(true);
  });

  it('judges them as any NFS mount of that server', () => {
    const ws = new Workspace();
    ws.set(`file://${PATH}`, TEXT);
    const found = visibleDiagnostics(lintFile(ws, `file://${PATH}`, resolveConfig({}))).map(
      (d) => `${d.range.start.line + 1} ${d.code}`,
    );
    expect(found).toEqual(expect.arrayContaining(['35 ANF211', '36 ANF207']));
  });
});
