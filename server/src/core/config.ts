import * as z from './zod';
import { withMeta } from './zod';
import { NETWORK_LATENCY, SERVICE_LEVELS, WORKLOAD_KINDS, type RegionPrices, type WorkloadKind } from './facts';
import type { Severity } from './diagnostics';
import { resolvePrices } from './calc/cost';
import { parseDuration, parseRate } from './units/units';

/**
 * The settings both the editor and the CLI read: `.anf-lint.yaml` at the workspace root, then
 * the editor's settings or CLI flags on top. The schema is the single description of the keys.
 */
export const ruleSettingSchema = z.enum(['off', 'hint', 'info', 'warning', 'error']);
export type RuleSetting = z.infer<typeof ruleSettingSchema>;

const described = <T extends z.core.$ZodType>(schema: T, description: string): T => withMeta(schema, { description });

export const configSchema = z.strictObject({
  rules: described(
    z.optional(z.record(z.string().check(z.regex(/^ANF\d{3}$/, 'Rule codes look like ANF201')), ruleSettingSchema)),
    'Per-rule severity, or "off". Example: { ANF204: off, ANF101: error }',
  ),
  region: described(z.optional(z.string()), 'Azure region for list prices, e.g. eastus. Default: eastus.'),
  prices: described(
    z.optional(
      z.strictObject({
        capacityPerGiBHour: z.optional(
          z.partial(
            z.object(Object.fromEntries(SERVICE_LEVELS.map((l) => [l, z.optional(z.number().check(z.positive()))]))),
          ),
        ),
        flexibleThroughputPerMiBpsHour: z.optional(z.number().check(z.positive())),
      }),
    ),
    'Price overrides in USD (negotiated prices), per GiB-hour and per MiB/s-hour.',
  ),
  kernelVersion: described(
    z.optional(z.string().check(z.regex(/^\d+\.\d+(\.\d+)?$/, 'Write the kernel version as 5.14 or 5.14.0'))),
    'The oldest client kernel the configuration must work on, e.g. 5.14.',
  ),
  network: z.optional(
    z.strictObject({
      rtt: described(
        z.optional(z.string()),
        'Round-trip time from clients to ANF, e.g. "0.5 ms" (VNet) or "2 ms" (ExpressRoute).',
      ),
      bandwidth: described(
        z.optional(z.string()),
        'Bandwidth one client should reach, e.g. "10 Gbps" or "1200 MiB/s".',
      ),
    }),
  ),
  workload: described(z.optional(z.enum(WORKLOAD_KINDS)), 'The workload to assume where nothing else says.'),
  behindAzureLoadBalancer: described(
    z.optional(
      z.union([z.boolean(), z.array(z.string().check(z.minLength(1)))], {
        error: 'expected true, false or a list of host names (the folders above etc/)',
      }),
    ),
    'The VMs sit behind Azure Load Balancer (Pacemaker clusters for SAP HANA, ASCS/ERS or NFS), so net.ipv4.tcp_timestamps must be 0: true for every host this configuration covers, or a list of host names (the folder above etc/, e.g. [hana-node1, hana-node2]).',
  ),
  sapHanaBehindLoadBalancer: described(
    z.optional(z.boolean()),
    'Old name, still read: true means the hosts that run SAP HANA sit behind Azure Load Balancer. Prefer behindAzureLoadBalancer.',
  ),
  iac: described(
    z.optional(
      z.strictObject({
        parameterFiles: described(
          z.optional(z.array(z.string().check(z.minLength(1)))),
          'ARM and Bicep parameters files to read with the template of their folder, as paths from the folder of this file (infra/prod.parameters.json, infra/prod.bicepparam). Without it, anf-lint reads <template>.parameters.json and a .bicepparam whose `using` names the template; example files (*.parameters.example.json) only where nothing else gives a value.',
        ),
        varFiles: described(
          z.optional(z.record(z.string(), z.array(z.string().check(z.minLength(1))))),
          "Var files a Terraform root module is planned with (`terraform plan -var-file=...`, tflint's `varfile`): a map from a module folder to its var files, both relative to this file, e.g. { infra: [environments/prod.tfvars] }. They are read after terraform.tfvars and *.auto.tfvars, in the order listed.",
        ),
      }),
    ),
    'Infrastructure code: which files give values the code itself does not hold.',
  ),
  nfsServers: described(
    z.optional(
      z.strictObject({
        anf: described(
          z.optional(z.array(z.string().check(z.minLength(1)))),
          'Servers that are Azure NetApp Files mount targets: addresses, host names, `*` patterns (anf-*.contoso.internal) or IPv4 ranges (10.20.0.0/16).',
        ),
        other: described(
          z.optional(z.array(z.string().check(z.minLength(1)))),
          'NFS servers that are not ANF (an on-premises filer, a Linux NFS server): only generic NFS advice applies to their mounts. Same forms as `anf`.',
        ),
        default: described(
          z.optional(z.enum(['anf', 'unknown'])),
          'What a server nothing else names is taken to be: `anf` (the default; ANF advice applies, but never as an error that only holds on ANF) or `unknown` (only generic NFS advice).',
        ),
      }),
    ),
    'Which NFS servers are ANF. Azure Files (*.file.core.windows.net) and Azure Blob NFS (*.blob.core.windows.net, the aznfs type) are recognized by name.',
  ),
  terraform: z.optional(
    z.strictObject({
      varFiles: described(
        z.optional(z.record(z.string(), z.array(z.string().check(z.minLength(1))))),
        'Old place of `iac.varFiles`, still read (ANF905 says so): move it under `iac:`. Where both name a folder, `iac.varFiles` wins.',
      ),
    }),
  ),
});

export type AnfLintConfig = z.infer<typeof configSchema>;

/**
 * Keys only `.anf-lint.yaml` holds: their paths are relative to that file, so an editor setting
 * (which has no such folder) cannot mean them. Every other key is also a VS Code setting
 * (test/e2e/vscode-contributions.test.ts).
 */
export const FILE_ONLY_CONFIG_KEYS: readonly (keyof AnfLintConfig)[] = ['iac', 'terraform'];

export interface ResolvedConfig {
  readonly ruleSettings: Readonly<Record<string, RuleSetting>>;
  readonly prices: RegionPrices & { readonly known: boolean };
  readonly kernelVersion?: string;
  readonly rttSeconds: number;
  /** Bytes per second one client should reach, if configured. */
  readonly clientBandwidthBytesPerSecond?: number;
  readonly defaultWorkload?: WorkloadKind;
  /** VMs behind Azure Load Balancer: every host the configuration covers (true), or the hosts named. */
  readonly behindAzureLoadBalancer: boolean | readonly string[];
  /** The old key: the hosts that run SAP HANA sit behind Azure Load Balancer. */
  readonly sapHanaBehindLoadBalancer: boolean;
  /** ARM/Bicep parameters files named in .anf-lint.yaml (`parameterFiles`), as written. */
  readonly parameterFiles?: readonly string[];
  /** Which NFS servers are ANF (`nfsServers` in .anf-lint.yaml); absent keys are empty lists and `anf`. */
  readonly nfsServers?: {
    readonly anf: readonly string[];
    readonly other: readonly string[];
    readonly default: 'anf' | 'unknown';
  };
}

/** Turns a validated configuration into the values rules use. Bad values fall back to defaults. */
export function resolveConfig(config: AnfLintConfig = {}): ResolvedConfig {
  const rtt = config.network?.rtt ? parseDuration(config.network.rtt) : undefined;
  const bandwidth = config.network?.bandwidth ? parseRate(config.network.bandwidth) : undefined;
  return {
    ruleSettings: config.rules ?? {},
    prices: resolvePrices(config.region, config.prices),
    ...(config.kernelVersion ? { kernelVersion: config.kernelVersion } : {}),
    rttSeconds: rtt?.ok ? rtt.value : NETWORK_LATENCY.vnetRttMs.value / 1000,
    ...(bandwidth?.ok ? { clientBandwidthBytesPerSecond: bandwidth.value.bytesPerSecond } : {}),
    ...(config.workload ? { defaultWorkload: config.workload } : {}),
    behindAzureLoadBalancer: config.behindAzureLoadBalancer ?? false,
    sapHanaBehindLoadBalancer: config.sapHanaBehindLoadBalancer ?? false,
    ...(config.iac?.parameterFiles ? { parameterFiles: config.iac.parameterFiles } : {}),
    ...(config.nfsServers
      ? {
          nfsServers: {
            anf: config.nfsServers.anf ?? [],
            other: config.nfsServers.other ?? [],
            default: config.nfsServers.default ?? 'anf',
          },
        }
      : {}),
  };
}

/** The severity a rule ends up with, or undefined when it is off. */
export function effectiveSeverity(
  config: ResolvedConfig,
  code: string,
  defaultSeverity: Severity,
  findingSeverity?: Severity,
): Severity | undefined {
  const setting = config.ruleSettings[code];
  if (setting === 'off') return undefined;
  return setting ?? findingSeverity ?? defaultSeverity;
}

export function compareKernelVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
