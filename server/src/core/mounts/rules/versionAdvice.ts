import { WORKLOADS, type NfsVersionPreference, type WorkloadKind } from '../../facts';
import type { VolumeSummary } from '../../manifest/volumeSummary';

/**
 * The NFS version anf-lint advises for a mount, in the order ANF224 (the volume does not serve the
 * version written) and ANF220 (the workload calls for another) decide it, so the hover on `vers=`
 * never recommends what a finding on the same token tells the user to change (issue 26).
 * test/unit/hover-agrees-with-findings.test.ts holds the hover and both rules to the same answer
 * on every rule fixture; change the three together.
 *
 * In order: a version the workload or Kerberos requires (SAP HANA data and log, krb5*: NFSv4.1),
 * even when the volume lacks it (then the volume's protocols are what must change); the one version
 * a volume serves; the workload's preferred version when the volume serves it; the version written
 * when the volume serves it; else the first the volume serves, or NFSv3.
 */
export interface VersionAdvice {
  readonly version: NfsVersionPreference;
  /** Why, in words for a hover: "the version volume `eda-tools` serves", "SAP HANA requires it". */
  readonly because: string;
}

export function advisedNfsVersion(options: {
  workload: WorkloadKind;
  written?: NfsVersionPreference;
  volume?: VolumeSummary;
  kerberos: boolean;
}): VersionAdvice {
  const { workload, written, volume, kerberos } = options;
  const traits = WORKLOADS[workload].nfsVersion;
  const served = volume
    ? volume.nfsVersions.filter((v): v is NfsVersionPreference => v === '3' || v === '4.1')
    : undefined;
  const serves = (v: NfsVersionPreference) => served === undefined || served.includes(v);
  if (traits.requires) return { version: traits.requires, because: `${WORKLOADS[workload].title} requires it` };
  if (kerberos) return { version: '4.1', because: 'Kerberos needs NFSv4.1' };
  if (served?.length === 1) return { version: served[0]!, because: `the version volume \`${volume!.name}\` serves` };
  if (traits.preferred !== 'either' && serves(traits.preferred))
    return { version: traits.preferred, because: `the version ${WORKLOADS[workload].title} calls for` };
  if (written && serves(written)) return { version: written, because: 'the version written, which the volume serves' };
  if (served && served.length > 0)
    return { version: served[0]!, because: `a version volume \`${volume!.name}\` serves` };
  return { version: '3', because: 'no workload or volume says otherwise' };
}
