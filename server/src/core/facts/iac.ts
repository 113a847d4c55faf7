import { fact } from './fact';

/**
 * Facts for reading infrastructure code (Terraform, Bicep, ARM, `az netappfiles` output): what a
 * workload demands of a volume when the code declares no requirement, and limits that changed
 * between API versions.
 */

/** One row of the SAP HANA TDI storage KPI table: the least read/write throughput of a volume. */
const hanaKpi = (mbps: number, volume: string) =>
  fact(mbps, 'MB/s', 'HANA_STORAGE', {
    note: `Read/write throughput of at least ${mbps} MB/s for ${volume} (SAP HANA TDI storage KPI).`,
  });

/**
 * SAP HANA's storage KPIs as Microsoft publishes them for Azure: the minimum throughput of the
 * /hana/data and /hana/log volumes (in MB/s, decimal, as published).
 */
export const HANA_STORAGE_KPI = {
  dataMBps: hanaKpi(400, '/hana/data'),
  logMBps: hanaKpi(250, '/hana/log'),
  bytesPerMB: fact(1_000_000, 'bytes per MB', 'HANA_STORAGE', { note: 'MB/s is decimal in the KPI table.' }),
};

/** Volume limits that depend on the ARM API version a template names. */
export const API_VERSION_LIMITS = {
  /**
   * The smallest `usageThreshold` each Microsoft.NetApp API version accepts for a volume, read from the
   * generated ARM types (BICEP_TYPES_NETAPP: `generated/netapp/microsoft.netapp/<api-version>/types.json`,
   * the IntegerType that `VolumeProperties.usageThreshold` refers to, `minValue`). Rows in date order; a
   * version takes the row whose `upToApiVersion` (compared on the date, previews included) it does not pass.
   * 100 GiB in all 34 versions from 2017-08-15 to 2023-11-01 (2023-05-01-preview, 2023-07-01-preview and
   * 2023-11-01-preview included); 50 GiB in every version from 2024-01-01 (stable and preview) to 2026-06-15-preview.
   */
  volumeMinUsageThresholdByApiVersion: fact(
    [
      { fromApiVersion: '2017-08-15', upToApiVersion: '2023-11-01', minBytes: 107374182400 },
      { fromApiVersion: '2024-01-01', upToApiVersion: '9999-12-31', minBytes: 53687091200 },
    ] as const,
    'bytes (usageThreshold minValue) by api-version',
    'BICEP_TYPES_NETAPP',
    {
      note: 'generated/netapp/microsoft.netapp/2023-11-01/types.json: minValue 107374182400; .../2024-01-01/types.json: minValue 53687091200.',
    },
  ),
  /**
   * 1 TiB capacity pools came with API version 2023-07-01-preview (2024-01-01 among stable versions;
   * the 2023-11-01 reference already counts pool sizes in 1 TiB steps). Versions dated before
   * 2023-07-01 are judged; stable 2023-07-01 and 2023-11-01 are not.
   */
  onePoolApiVersionFrom: fact('2023-07-01', 'api-version', 'AVM_NETAPP_POOL', {
    note: 'A 1 TiB pool needs API 2023-07-01-preview to 2024-01-01-preview, or 2024-01-01 and later stable versions.',
  }),
  onePoolStableApiVersionFrom: fact('2024-01-01', 'api-version', 'AVM_NETAPP_POOL', {
    note: 'The first stable API version the 1 TiB pool minimum is documented for.',
  }),
  /** Before 1 TiB pools the smallest pool was 2 TiB (a preview, Standard network features only) or 4 TiB: anf-lint judges only pools under 2 TiB, which no older version took. */
  olderPoolMinTiB: fact(2, 'TiB', 'AVM_NETAPP_POOL', {
    note: 'The 2 TiB pool minimum was a preview before 1 TiB pools; 4 TiB before that.',
  }),
};

/** Export policy and zone facts of the volume resource. */
export const VOLUME_RESOURCE = {
  zonesPerVolume: fact(1, 'zone', 'AZ_ZONES', { note: 'A volume is placed in exactly one availability zone.' }),
  decimalGiB: fact(1_000_000_000, 'bytes', 'NETAPP_ARM', {
    note: '10^9: a GB, not a GiB (2^30 bytes); usageThreshold and pool size are bytes.',
  }),
  decimalStep: fact(1000, '', 'NETAPP_ARM', {
    note: 'A decimal multiplier (kB/MB/GB) where the API counts binary units.',
  }),
  binaryStep: fact(1024, '', 'NETAPP_ARM', { note: 'The binary multiplier (KiB/MiB/GiB).' }),
};

/** anf-lint's own thresholds for infrastructure code (the rule pages say so). */
export const SIZING_IAC = {
  poolSlackFactor: fact(2, 'x the volume quotas', 'CM', {
    note: "anf-lint threshold: a pool at least twice the sum of its quotas is 'far larger' (pools are billed for their provisioned size).",
  }),
};

/**
 * What the Azure Verified Modules for ANF deploy when an input is left out (read from each
 * module's source; iac/knownModules.ts). Only defaults that change a finding are kept here.
 */
export const KNOWN_MODULE_DEFAULTS = {
  bicepPoolServiceLevel: fact('Standard', 'service level', 'AVM_BICEP_NETAPP', {
    note: "The account module passes `capacityPools[].serviceLevel ?? 'Standard'` to each pool (and each pool's level to its volumes).",
  }),
  bicepPoolSizeInTiBFromMinor: fact(8, 'minor version', 'AVM_BICEP_NETAPP', {
    note: "Versions 0.1-0.7 take `capacityPools[].size` in bytes (the pool module passes it on as written); from 0.8.0 in TiB (the pool module converts it with `tebibytesToBytes`). Read from the module's history of capacity-pool/main.bicep.",
  }),
  terraformVolumeGiB: fact(50, 'GiB', 'AVM_TF_NETAPP', {
    note: '`volumes[].volume_size_in_gib` is `optional(number, 50)`; the volume submodule multiplies it by 1073741824 into `usageThreshold` bytes.',
  }),
};

/** The network planning page's smallest recommended delegated subnet (NETWORK_PLANNING), as a prefix length. */
const planningMinimum = (prefixLength: number, note: string) =>
  fact(prefixLength, 'prefix length', 'NETWORK_PLANNING', { note });

/**
 * The subnet delegated to `Microsoft.NetApp/volumes` (checked 2026-11-28 for issue 28 §3 item 12; read
 * by iac/subnets.ts, judged by ANF414-ANF416). The delegate page of 2022 said no NSG or service endpoint
 * may be designated at all; its 2024-11-27 version limits that to Basic network features, and the
 * network planning page (2023-07-24) allows NSGs with Standard network features: the newer pages win.
 * No page names a size Azure refuses: /28 is the smallest the delegate page describes, and Azure's own
 * smallest IPv4 subnet is /29 (VNET_FAQ).
 */
export const DELEGATED_SUBNET = {
  delegationServiceName: fact('Microsoft.NetApp/volumes', 'delegation service name', 'DELEGATE_SUBNET', {
    note: '"Subnet delegation: Select Microsoft.NetApp/volumes." ARM compares it without case; code writes `Microsoft.Netapp/volumes` too.',
  }),
  sufficientPrefixLength: fact(28, 'prefix length (/28, 11 usable addresses)', 'DELEGATE_SUBNET', {
    note: '"A subnet with a /28 network mask provides only 11 usable IP addresses, which might be insufficient for certain use cases." (2024-11-27; the 2022 version: "Using a /28 network mask, which provides for 11 usable IP addresses, is sufficient for most use cases.")',
  }),
  recommendedPrefixLength: planningMinimum(
    26,
    '"It\'s also recommended that the size of the delegated subnet be at least /25 for SAP workloads and /26 for other workload scenarios." The delegate page: "A /26 network mask provides 59 usable IP addresses".',
  ),
  recommendedSapPrefixLength: planningMinimum(25, 'Same sentence: "at least /25 for SAP workloads".'),
  nsgWithBasicNetworkFeatures: fact(false, 'supported', 'DELEGATE_SUBNET', {
    note: '"If you\'re using Basic network features, you can\'t designate a network security group (NSG) or service endpoint in the delegated subnet. Doing so causes the subnet delegation to fail." NETWORK_PLANNING constraints table: NSGs on delegated subnets, Standard Yes, Basic No.',
  }),
  nsgWithStandardNetworkFeatures: fact(true, 'supported', 'NETWORK_PLANNING'),
  nsgWithMixedNetworkFeatures: fact('applies to the Standard volumes only', 'behaviour', 'NETWORK_PLANNING', {
    note: '"If the subnet has a combination of volumes with the Standard and Basic network features, user-defined routes (UDRs) and network security groups (NSGs) applied on the delegated subnets will only apply to the volumes with the Standard network features."',
  }),
  serviceEndpointWithBasicNetworkFeatures: fact(false, 'supported', 'DELEGATE_SUBNET', {
    note: 'The same sentence as for NSGs: "you can\'t designate a network security group (NSG) or service endpoint in the delegated subnet" with Basic network features; "To designate an NSG or service endpoint, upgrade to Standard network features."',
  }),
  azureReservedAddressesPerSubnet: fact(5, 'addresses', 'VNET_FAQ', {
    note: '"Azure reserves the first four and last IP address for a total of 5 IP addresses within each subnet."',
  }),
} as const;
/** What the az CLI does with the sizes of `az netappfiles` commands (iac/azCli.ts). */
export const AZ_CLI_UNITS = {
  poolSizeUnit: fact('TiB' as const, 'unit', 'AZ_CLI_NETAPPFILES', {
    note: '`az netappfiles pool create|update --size` takes whole TiB; the CLI multiplies by 2^40 before calling the API (PoolCreate.pre_operations).',
  }),
  volumeQuotaUnit: fact('GiB' as const, 'unit', 'AZ_CLI_NETAPPFILES', {
    note: '`az netappfiles volume create|update --usage-threshold` takes GiB (default 100); the CLI multiplies by 2^30 (VolumeCreate.pre_operations; azure-cli issue 30111).',
  }),
  /** What `az netappfiles volume create` sends when `--usage-threshold` is omitted (an `update` changes nothing it omits). */
  volumeQuotaDefaultGiB: fact(100, 'GiB', 'AZ_CLI_NETAPPFILES', {
    note: 'aaz/latest/netappfiles/volume/_create.py (API 2025-06-01): `usage_threshold = AAZIntArg(options=["--usage-threshold"], ..., required=True, default=100)`.',
  }),
};

/** What Trident's `azure-netapp-files` driver does with a claim (iac/trident.ts). */
export const TRIDENT_ANF = {
  minVolumeGiB: fact(50, 'GiB', 'TRIDENT_ANF', {
    note: 'Trident creates a 50 GiB volume when a smaller one is requested (Trident 25.02; the docs of releases up to 23.x said 100 GB).',
  }),
};

/** ARM template limits that decide how a template is read (iac/arm/evaluate.ts). */
export const ARM_TEMPLATE_LIMITS = {
  maxCopyCount: fact(800, 'instances', 'ARM_COPY', {
    note: '"The count can\'t exceed 800." A larger copy count fails the deployment.',
  }),
};
