import type { Rule } from '../../rules/rule';
import { iacSyntaxError } from './ANF400-iac-syntax-error';
import { volumeServiceLevelMismatch } from './ANF401-volume-service-level-mismatch';
import { exportPolicyProtocol } from './ANF402-export-policy-protocol';
import { exportRootOpen } from './ANF403-export-root-open';
import { manualQosUnassigned } from './ANF404-manual-qos-unassigned';
import { poolMuchLarger } from './ANF405-pool-much-larger';
import { decimalByteArithmetic } from './ANF406-decimal-byte-arithmetic';
import { volumeMultipleZones } from './ANF407-volume-multiple-zones';
import { hanaStorageKpi } from './ANF408-hana-storage-kpi';
import { apiVersionVolumeMinimum } from './ANF409-api-version-volume-minimum';
import { apiVersionPoolMinimum } from './ANF410-api-version-pool-minimum';
import { workloadGuess } from './ANF411-workload-guess';
import { poolWithoutVolumes } from './ANF412-pool-without-volumes';
import { volumePoolNotDeclared } from './ANF413-volume-pool-not-declared';
import { delegatedSubnetSize } from './ANF414-delegated-subnet-size';
import { delegatedSubnetNsg } from './ANF415-delegated-subnet-nsg';
import { delegatedSubnetServiceEndpoint } from './ANF416-delegated-subnet-service-endpoint';
import { terraformUndeclaredVariable } from './ANF420-terraform-undeclared-variable';
import { undeclaredParameter } from './ANF421-undeclared-parameter';
import { evaluationStopped } from './ANF422-evaluation-stopped';
import { terraformUndeclaredTfvarsKey } from './ANF423-terraform-undeclared-tfvars-key';

/** Rules only infrastructure code needs (ANF400-ANF449). The sizing rules (ANF110-ANF125) run on IaC too. */
export const iacRules: readonly Rule[] = [
  iacSyntaxError,
  volumeServiceLevelMismatch,
  exportPolicyProtocol,
  exportRootOpen,
  manualQosUnassigned,
  poolMuchLarger,
  decimalByteArithmetic,
  volumeMultipleZones,
  hanaStorageKpi,
  apiVersionVolumeMinimum,
  apiVersionPoolMinimum,
  workloadGuess,
  poolWithoutVolumes,
  volumePoolNotDeclared,
  delegatedSubnetSize,
  delegatedSubnetNsg,
  delegatedSubnetServiceEndpoint,
  terraformUndeclaredVariable,
  undeclaredParameter,
  evaluationStopped,
  terraformUndeclaredTfvarsKey,
];
