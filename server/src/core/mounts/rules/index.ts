import type { Rule } from '../../rules/rule';
import { malformedMountEntry } from './ANF200-malformed-mount-entry';
import { workloadAnnotation } from './ANF201-workload-annotation';
import { unknownMountOption } from './ANF202-unknown-mount-option';
import { invalidOptionValue } from './ANF203-invalid-option-value';
import { overriddenMountOption } from './ANF204-overridden-mount-option';
import { rsizeWsizeDiffer } from './ANF205-rsize-wsize-differ';
import { transferSize } from './ANF206-transfer-size';
import { softMount } from './ANF207-soft-mount';
import { intrIgnored } from './ANF208-intr-ignored';
import { syncMount } from './ANF209-sync-mount';
import { noac } from './ANF210-noac';
import { nfsVersionNotPinned } from './ANF211-nfs-version-not-pinned';
import { udpTransport } from './ANF212-udp-transport';
import { eagerTimeout } from './ANF213-eager-timeout';
import { nconnectMissing } from './ANF214-nconnect-missing';
import { nconnectAboveTested } from './ANF215-nconnect-above-tested';
import { nconnectWithKerberos } from './ANF216-nconnect-with-kerberos';
import { nconnectDiffersSameServer } from './ANF217-nconnect-differs-same-server';
import { relaxedCacheOnSharedData } from './ANF218-relaxed-cache-on-shared-data';
import { attributeCacheReadMostly } from './ANF219-attribute-cache-read-mostly';
import { nfsVersionForWorkload } from './ANF220-nfs-version-for-workload';
import { fstabWithoutNetdev } from './ANF221-fstab-without-netdev';
import { fstabFsckPass } from './ANF222-fstab-fsck-pass';
import { optionNeedsNewerKernel } from './ANF223-option-needs-newer-kernel';
import { nfsVersionNotServed } from './ANF224-nfs-version-not-served';
import { kerberosOnVolumeWithoutKerberos } from './ANF225-kerberos-on-volume-without-kerberos';
import { mountReachesOtherThanManifest } from './ANF226-mount-reaches-other-than-manifest';
import { duplicateMountPoint } from './ANF227-duplicate-mount-point';
import { kerberosOnNfsv3 } from './ANF228-kerberos-on-nfsv3';
import { lockOrLookupCacheOnSharedData } from './ANF229-lock-or-lookup-cache-on-shared-data';
import { maxConnectOnAnf } from './ANF230-max-connect-on-anf';
import { fscNeedsCachefilesd } from './ANF231-fsc-needs-cachefilesd';
import { relativeMountPoint } from './ANF232-relative-mount-point';
import { filesystemTypeInOptions } from './ANF240-filesystem-type-in-options';
import { optionsInExtraQuotes } from './ANF241-options-in-extra-quotes';

/** Every mount rule, one file each, in code order. */
export const mountRules: readonly Rule[] = [
  malformedMountEntry,
  workloadAnnotation,
  unknownMountOption,
  invalidOptionValue,
  overriddenMountOption,
  rsizeWsizeDiffer,
  transferSize,
  softMount,
  intrIgnored,
  syncMount,
  noac,
  nfsVersionNotPinned,
  udpTransport,
  eagerTimeout,
  nconnectMissing,
  nconnectAboveTested,
  nconnectWithKerberos,
  nconnectDiffersSameServer,
  relaxedCacheOnSharedData,
  attributeCacheReadMostly,
  nfsVersionForWorkload,
  fstabWithoutNetdev,
  fstabFsckPass,
  optionNeedsNewerKernel,
  nfsVersionNotServed,
  kerberosOnVolumeWithoutKerberos,
  mountReachesOtherThanManifest,
  duplicateMountPoint,
  kerberosOnNfsv3,
  lockOrLookupCacheOnSharedData,
  maxConnectOnAnf,
  fscNeedsCachefilesd,
  relativeMountPoint,
  filesystemTypeInOptions,
  optionsInExtraQuotes,
];
