import { describe, expect, it } from 'vitest';
import { WORKLOAD_PATH_CONVENTIONS, workloadFromMountPath } from '../../server/src/core/facts/workloads';

/** What workloadFromMountPath answered before it skipped the patterns by their first letter: every pattern, in order. */
function everyPattern(mountPoint: string | undefined) {
  if (!mountPoint) return undefined;
  const path = mountPoint.replace(/\/+$/, '') || '/';
  const rule = WORKLOAD_PATH_CONVENTIONS.find((r) => r.pattern.test(path));
  return rule ? { workload: rule.workload, convention: rule.convention } : undefined;
}

describe('workloadFromMountPath', () => {
  it('answers as running every convention would, for mount points that match one and for those that do not', () => {
    const paths = [
      '/hana/data',
      '/hana/data/',
      '/hana/data/HN1/mnt00001',
      '/hana/log//',
      '/hana/shared',
      '/hana/datax',
      '/sapmnt',
      '/sapmnt/HN1',
      '/usr/sap',
      '/usr/sap/trans',
      '/usr/local',
      '/u01/oradata',
      '/u02/app/oracle/oradata/',
      '/u03/oralog',
      '/u04/oraarch',
      '/u01/app/oracle',
      '/u1/oradata',
      '/mnt/vol-1',
      '/data',
      '/',
      '//',
      '',
      'hana/data',
      '/HANA/data',
      '/scratch',
      '/home/u01',
    ];
    for (const path of [...paths, undefined])
      expect(workloadFromMountPath(path), String(path)).toEqual(everyPattern(path));
    expect(paths.filter((p) => workloadFromMountPath(p)).length, 'paths that match a convention').toBeGreaterThan(10);
  });
});
