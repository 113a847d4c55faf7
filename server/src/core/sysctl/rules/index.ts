import type { Rule } from '../../rules/rule';
import { malformedSysctlLine } from './ANF300-malformed-sysctl-line';
import { malformedModprobeOptions } from './ANF301-malformed-modprobe-options';
import { malformedSysctlCommand } from './ANF302-malformed-sysctl-command';
import { invalidSysctlValue } from './ANF303-invalid-sysctl-value';
import { sysctlValueOutOfRange } from './ANF304-sysctl-value-out-of-range';
import { misspelledSysctlKey } from './ANF305-misspelled-sysctl-key';
import { duplicateSysctlKey } from './ANF306-duplicate-sysctl-key';
import { tcpSackDisabled } from './ANF307-tcp-sack-disabled';
import { tcpWindowScalingDisabled } from './ANF308-tcp-window-scaling-disabled';
import { obsoleteSysctlKey } from './ANF309-obsolete-sysctl-key';
import { routeFlushInPersistentFile } from './ANF310-route-flush-in-persistent-file';
import { tcpTimestampsForWorkload } from './ANF311-tcp-timestamps-for-workload';
import { dirtyBackgroundRatioNotBelowDirtyRatio } from './ANF312-dirty-background-ratio-not-below-dirty-ratio';
import { dirtyBytesAndRatioBothSet } from './ANF313-dirty-bytes-and-ratio-both-set';
import { socketBufferMaxBelowTcpMax } from './ANF314-socket-buffer-max-below-tcp-max';
import { tcpWindowBelowBandwidthDelay } from './ANF315-tcp-window-below-bandwidth-delay';
import { slotTableAboveConnectionLimit } from './ANF316-slot-table-above-connection-limit';
import { slotTableAboveNconnectGuidance } from './ANF317-slot-table-above-nconnect-guidance';
import { slotTotalAboveEndpointLimit } from './ANF318-slot-total-above-endpoint-limit';
import { moduleParameterInSysctlFile } from './ANF319-module-parameter-in-sysctl-file';
import { slotTableNotCapped } from './ANF320-slot-table-not-capped';
import { unknownKeyInClosedNamespace } from './ANF321-unknown-key-in-closed-namespace';
import { sysctlKeyWithoutNamespace } from './ANF322-sysctl-key-without-namespace';
import { quotedKernelLine } from './ANF323-quoted-kernel-line';
import { tcpMemInBytes } from './ANF324-tcp-mem-in-bytes';
import { socketDefaultBufferTooLarge } from './ANF325-socket-default-buffer-too-large';

/** Every kernel-tuning rule, one file each, in code order. */
export const kernelRules: readonly Rule[] = [
  malformedSysctlLine,
  malformedModprobeOptions,
  malformedSysctlCommand,
  invalidSysctlValue,
  sysctlValueOutOfRange,
  misspelledSysctlKey,
  duplicateSysctlKey,
  tcpSackDisabled,
  tcpWindowScalingDisabled,
  obsoleteSysctlKey,
  routeFlushInPersistentFile,
  tcpTimestampsForWorkload,
  dirtyBackgroundRatioNotBelowDirtyRatio,
  dirtyBytesAndRatioBothSet,
  socketBufferMaxBelowTcpMax,
  tcpWindowBelowBandwidthDelay,
  slotTableAboveConnectionLimit,
  slotTableAboveNconnectGuidance,
  slotTotalAboveEndpointLimit,
  moduleParameterInSysctlFile,
  slotTableNotCapped,
  unknownKeyInClosedNamespace,
  sysctlKeyWithoutNamespace,
  quotedKernelLine,
  tcpMemInBytes,
  socketDefaultBufferTooLarge,
];
