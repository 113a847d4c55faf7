/**
 * A manifest with one volume (`data`, serving the given protocols) and an fstab that mounts it:
 * the workspace the NFS-version rule tests (ANF211, ANF220, ANF224) lint their mount lines in.
 */
import { lintFile, resolveConfig, visibleDiagnostics, Workspace, type Diagnostic } from '../../server/src/core';

const config = resolveConfig();
export const MANIFEST = 'file:///repo/estate.anf.yaml';
const FSTAB = 'file:///repo/etc/fstab';

function manifest(protocols: string): string {
  return [
    'accounts:',
    '  - name: prod',
    '    pools:',
    '      - name: pool',
    '        serviceLevel: Premium',
    '        size: 4 TiB',
    '        volumes:',
    '          - name: data',
    '            quota: 1 TiB',
    ...(protocols ? [`            protocols: ${protocols}`] : []),
    '            mountTarget: 10.0.0.4',
    '            exportPath: /data',
    '',
  ].join('\n');
}

/** The fstab's visible diagnostics, with the workspace (for applying fixes). `protocols: ''` leaves the key out. */
export function lintMounts(protocols: string, fstab: string): { diagnostics: Diagnostic[]; workspace: Workspace } {
  const workspace = new Workspace(config);
  workspace.set(MANIFEST, manifest(protocols));
  workspace.set(FSTAB, fstab);
  return { diagnostics: visibleDiagnostics(lintFile(workspace, FSTAB, config)), workspace };
}
