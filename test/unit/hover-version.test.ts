import { describe, expect, it } from 'vitest';
import { resolveConfig, Workspace } from '../../server/src/core';
import { computeHover } from '../../server/src/core/features/hover';

/** The hover on a pinned `vers=` gives the workload's recommendation, the one ANF220 and ANF224 give on the same token. */
function hoverOn(fstab: string, token: string): string {
  const config = resolveConfig();
  const workspace = new Workspace(config);
  workspace.set('file:///host/etc/fstab', fstab);
  return computeHover(workspace, 'file:///host/etc/fstab', fstab.indexOf(token) + 1, config)?.markdown ?? '';
}

describe('hover on vers=', () => {
  it('an EDA tools mount pinned to vers=4.1 is told vers=3', () => {
    const fstab =
      '# anf: workload=eda-tools\n10.0.0.4:/tools /tools nfs rw,hard,vers=4.1,rsize=262144,wsize=262144 0 0\n';
    const markdown = hoverOn(fstab, 'vers=4.1');
    expect(markdown).toContain('`vers=3`');
    expect(markdown).not.toContain('recommendation for EDA tools and libraries: `vers=4.1`');
  });

  it('a SAP HANA log mount pinned to vers=3 is told vers=4.1', () => {
    const fstab =
      '# anf: workload=sap-hana-log\n10.0.0.4:/log /hana/log nfs rw,hard,vers=3,rsize=262144,wsize=262144 0 0\n';
    expect(hoverOn(fstab, 'vers=3')).toContain('`vers=4.1`');
  });

  it('other options still follow the version written', () => {
    const fstab =
      '# anf: workload=eda-tools\n10.0.0.4:/tools /tools nfs rw,hard,vers=4.1,rsize=262144,wsize=262144 0 0\n';
    expect(hoverOn(fstab, 'rsize')).toContain('`rsize=262144`');
  });
});
