import { describe, expect, it } from 'vitest';
import { workloadFromName } from '../../server/src/core/iac/estate';

/**
 * The workload a volume's name or export path sets without any annotation: only strong
 * conventions (docs/iac.md "Workload"). A name that merely resembles one sets nothing; ANF411
 * hints at it instead. A wrong guess turns a vendor-prescribed configuration into an error (EDA's
 * and Oracle's NFSv3 under HANA's "needs NFSv4.1"), so every weak case here must stay undefined.
 */
describe('workload from a volume name', () => {
  it.each([
    ['HN1-data-mnt00001', 'sap-hana-data'],
    ['hn1-log-mnt00002', 'sap-hana-log'],
    ['HN1-data', 'sap-hana-data'],
    ['P02-log', 'sap-hana-log'],
    ['hn1-shared', 'sap-hana-shared'],
    ['hana-data-p01', 'sap-hana-data'],
    ['hanalog', 'sap-hana-log'],
  ])('%s is %s', (name, workload) => {
    expect(workloadFromName(name, undefined)).toBe(workload);
  });

  it.each([
    'eda-data',
    'ora-data',
    'env-data',
    'app-log',
    'HN1-data-backup',
    'hana-data-backup',
    'hanalog-backup',
    'eda-tools',
    'data',
  ])('%s sets none', (name) => {
    expect(workloadFromName(name, undefined)).toBeUndefined();
  });

  it('reads the export path when the name says nothing', () => {
    expect(workloadFromName('vol1', 'HN1-log-mnt00001')).toBe('sap-hana-log');
    expect(workloadFromName('vol1', 'eda-log')).toBeUndefined();
  });
});
