import type { Rule } from '../../rules/rule';
import { manifestSyntaxError } from './ANF100-manifest-syntax-error';
import { duplicateKey } from './ANF101-duplicate-key';
import { unknownKey } from './ANF102-unknown-key';
import { invalidValue } from './ANF103-invalid-value';
import { missingRequiredKey } from './ANF104-missing-required-key';
import { poolSizeLimits } from './ANF110-pool-size-limits';
import { volumeQuotaRange } from './ANF111-volume-quota-range';
import { poolOvercommitted } from './ANF112-pool-overcommitted';
import { resourceCountLimits } from './ANF113-resource-count-limits';
import { manualQosThroughput } from './ANF114-manual-qos-throughput';
import { flexiblePoolThroughput } from './ANF115-flexible-pool-throughput';
import { requirementNotMet } from './ANF116-requirement-not-met';
import { overProvisioned } from './ANF117-over-provisioned';
import { needsLargeVolume } from './ANF118-needs-large-volume';
import { workloadNfsVersion } from './ANF119-workload-nfs-version';
import { kerberosNeedsNfsv41 } from './ANF120-kerberos-needs-nfsv41';
import { coolAccessLowersThroughput } from './ANF121-cool-access-lowers-throughput';
import { coolAccessRandomIo } from './ANF122-cool-access-random-io';
import { duplicateResource } from './ANF123-duplicate-resource';
import { decimalSizeUnit } from './ANF124-decimal-size-unit';
import { coolAccessPoolDisabled } from './ANF125-cool-access-pool-disabled';
import { largeVolumeForDatabase } from './ANF126-large-volume-for-database';
import { iopsAboveMeasuredCeiling } from './ANF127-iops-above-measured-ceiling';
import { smallVolumeInMinimumPool } from './ANF128-small-volume-in-minimum-pool';

/** Every manifest rule, one file each, in code order. */
export const manifestRules: readonly Rule[] = [
  manifestSyntaxError,
  duplicateKey,
  unknownKey,
  invalidValue,
  missingRequiredKey,
  poolSizeLimits,
  volumeQuotaRange,
  poolOvercommitted,
  resourceCountLimits,
  manualQosThroughput,
  flexiblePoolThroughput,
  requirementNotMet,
  overProvisioned,
  needsLargeVolume,
  workloadNfsVersion,
  kerberosNeedsNfsv41,
  coolAccessLowersThroughput,
  coolAccessRandomIo,
  duplicateResource,
  decimalSizeUnit,
  coolAccessPoolDisabled,
  largeVolumeForDatabase,
  iopsAboveMeasuredCeiling,
  smallVolumeInMinimumPool,
];
