import { KNOWN_MODULE_DEFAULTS } from '../facts';
import type { Span } from '../text/sourceText';
import type {
  IacAccount,
  IacExportRule,
  IacModuleCall,
  IacPool,
  IacRef,
  IacRequirements,
  IacSize,
  IacSlip,
  IacValue,
  IacVolume,
  IacWorkload,
} from './estate';
import {
  armExportRule,
  bool,
  common,
  decimalSlip,
  exportRuleAccess,
  num,
  opt,
  requirementsOpt,
  size,
  str,
  strList,
  workloadOpt,
  type Field,
  type Meta,
  type Obj,
} from './fields';

/**
 * Registry modules anf-lint knows: a `module` call of one of them gives the account, pools and
 * volumes the module deploys, read from the call's own arguments (Bicep `params`, the Terraform
 * block's attributes) with the units the module documents. Every value sits where the caller
 * writes it, so findings and fixes land in the calling file. Anything not written literally (a
 * param, a variable, a `for` expression) stays unknown, as in a resource.
 *
 * One row per module in KNOWN_MODULES; the names, units and defaults of each were read from the
 * module's source at the versions `checked` names. A call of another version is read only when
 * every input it writes (at the top, in a pool, a volume, an export rule) is a name that version
 * declares: a module that renamed or re-unit-ed an input is skipped, never read with the old
 * meaning. A call with no version (a Terraform block without `version`) is checked the same way.
 */

export interface KnownCall {
  readonly language: 'bicep' | 'terraform';
  readonly call: IacModuleCall;
  /** The Terraform block's `version` argument, as written (a constraint: `0.3.0`, `~> 0.3`). */
  readonly version?: string;
  /** The call's arguments (Bicep: `params`; Terraform: the block's attributes), read in the caller's scope. */
  readonly args: ReadonlyMap<string, Field>;
  /** `anf:` annotations on or above an entry (common.ts). */
  readonly annotationOf: (span: Span) => IacWorkload | undefined;
  readonly requiredOf: (span: Span) => IacRequirements | undefined;
}

export interface KnownModuleEstate {
  readonly accounts: IacAccount[];
  readonly pools: IacPool[];
  readonly volumes: IacVolume[];
  readonly slips: IacSlip[];
}

/** The input names a module version declares, by where they are written. */
interface Inputs {
  readonly top: readonly string[];
  readonly pool: readonly string[];
  readonly volume: readonly string[];
  readonly rule: readonly string[];
}

interface KnownModule {
  readonly language: 'bicep' | 'terraform';
  /** The source without its version, lower case: a Bicep registry path, a Terraform registry address. */
  readonly source: string;
  /** How hovers name it. */
  readonly title: string;
  /** Versions whose inputs were read from the module's source (Bicep: the tag; Terraform: an exact version). */
  readonly checked: RegExp;
  readonly inputs: Inputs;
  /** `version`: the one the call names (Bicep: its tag; Terraform: an exact `version`), if any. */
  readonly read: (at: KnownCall, version: string | undefined) => KnownModuleEstate;
}

// ---------------------------------------------------------------------------------------------
// Bicep: br/public:avm/res/net-app/net-app-account (0.12.x: main.bicep, capacity-pool/main.bicep,
// capacity-pool/volume/main.bicep)

const BICEP_ACCOUNT_INPUTS: Inputs = {
  top: [
    'name',
    'adName',
    'aesEncryption',
    'customerManagedKey',
    'domainName',
    'domainJoinUser',
    'domainJoinPassword',
    'domainJoinOU',
    'dnsServers',
    'encryptDCConnections',
    'allowLocalNfsUsersWithLdap',
    'smbServerNamePrefix',
    'capacityPools',
    'managedIdentities',
    'roleAssignments',
    'kdcIP',
    'ldapOverTLS',
    'ldapSigning',
    'location',
    'lock',
    'serverRootCACertificate',
    'tags',
    'enableTelemetry',
    'backupVault',
    'snapshotPolicies',
    'backupPolicies',
  ],
  pool: [
    'name',
    'location',
    'tags',
    'serviceLevel',
    'size',
    'qosType',
    'volumes',
    'coolAccess',
    'roleAssignments',
    'encryptionType',
  ],
  volume: [
    'name',
    'coolAccess',
    'coolnessPeriod',
    'coolAccessRetrievalPolicy',
    'encryptionKeySource',
    'keyVaultPrivateEndpointResourceId',
    'dataProtection',
    'location',
    'availabilityZone',
    'serviceLevel',
    'networkFeatures',
    'creationToken',
    'usageThreshold',
    'protocolTypes',
    'subnetResourceId',
    'exportPolicy',
    'roleAssignments',
    'smbEncryption',
    'smbContinuouslyAvailable',
    'smbNonBrowsable',
    'smbAccessBasedEnumeration',
    'kerberosEnabled',
    'volumeType',
    'throughputMibps',
    'isLargeVolume',
    'tags',
    'securityStyle',
    'unixPermissions',
  ],
  rule: [
    'ruleIndex',
    'allowedClients',
    'chownMode',
    'cifs',
    'hasRootAccess',
    'kerberos5ReadOnly',
    'kerberos5ReadWrite',
    'kerberos5iReadOnly',
    'kerberos5iReadWrite',
    'kerberos5pReadOnly',
    'kerberos5pReadWrite',
    'nfsv3',
    'nfsv41',
    'unixReadOnly',
    'unixReadWrite',
  ],
};

/**
 * The unit of a pool's `size` in a call of this version: bytes before 0.8.0, TiB since (the module
 * changed it without renaming the input, so the input-name check cannot tell them apart). A tag
 * that is not `major.minor.patch` is read as the checked versions read it.
 */
function bicepPoolSizeUnit(version: string | undefined): 'TiB' | 'B' {
  const parsed = version === undefined ? undefined : /^(\d+)\.(\d+)\.\d+$/.exec(version);
  if (!parsed) return 'TiB';
  const [major, minor] = [Number(parsed[1]), Number(parsed[2])];
  return major === 0 && minor < KNOWN_MODULE_DEFAULTS.bicepPoolSizeInTiBFromMinor.value ? 'B' : 'TiB';
}

/**
 * `capacityPools: [ { name, serviceLevel, size (TiB), qosType, coolAccess, volumes: [ { name,
 * usageThreshold (bytes), protocolTypes, throughputMibps, ... } ] } ]`. The pool module converts
 * `size` from TiB to bytes; `serviceLevel` defaults to Standard; each volume gets its pool's
 * `serviceLevel` (a volume's own `serviceLevel` is declared but not passed on) and its `name` as
 * `creationToken` unless one is written. `availabilityZone` 1-3 is the volume's zone.
 */
function readBicepAccount(at: KnownCall, version: string | undefined): KnownModuleEstate {
  const poolSizeUnit = bicepPoolSizeUnit(version);
  const out = empty();
  const accountSymbol = at.call.name;
  const account: IacAccount = {
    kind: 'account',
    ...common(meta(at, accountSymbol, at.call.span, at.call.headSpan, at.args.get('name'))),
  };
  out.accounts.push(account);
  const pools = at.args.get('capacityPools')?.items ?? [];
  pools.forEach((item, i) => {
    const p = item.object;
    if (!p) return;
    const symbol = `${accountSymbol}.capacityPools[${i}]`;
    const name = p.field('name');
    const level =
      str(p.field('serviceLevel')) ??
      moduleDefault(
        name,
        item,
        KNOWN_MODULE_DEFAULTS.bicepPoolServiceLevel.value,
        '`serviceLevel` is not set: the module deploys',
      );
    out.pools.push({
      kind: 'pool',
      ...common(meta(at, symbol, item.span, name?.span ?? item.span, name)),
      account: { symbol: accountSymbol },
      serviceLevel: level,
      ...opt('size', size(p.field('size'), poolSizeUnit)),
      ...opt('qos', str(p.field('qosType'))),
      ...opt('coolAccess', bool(p.field('coolAccess'))),
    });
    (p.field('volumes')?.items ?? []).forEach((vItem, j) => {
      const v = vItem.object;
      if (!v) return;
      const vName = v.field('name');
      const slip = decimalSlip(v.field('usageThreshold'), 'The volume quota (`usageThreshold`)');
      if (slip) out.slips.push(slip);
      const m = {
        ...meta(at, `${symbol}.volumes[${j}]`, vItem.span, vName?.span ?? vItem.span, vName, v.field('tags')),
        account: { symbol: accountSymbol },
        pool: { symbol },
      };
      const zone = num(v.field('availabilityZone'));
      const token = str(v.field('creationToken')) ?? str(vName);
      out.volumes.push(
        volume(m, {
          quota: size(v.field('usageThreshold'), 'B'),
          protocols: strList(v.field('protocolTypes')),
          throughputMiBps: num(v.field('throughputMibps')),
          largeVolume: bool(v.field('isLargeVolume')),
          networkFeatures: str(v.field('networkFeatures')),
          zones:
            zone && zone.value !== undefined && zone.value > 0 ? { ...zone, value: [String(zone.value)] } : undefined,
          kerberos: bool(v.field('kerberosEnabled')),
          creationToken: token,
          coolAccess: bool(v.field('coolAccess')),
          exportRules: (v.field('exportPolicy')?.object?.field('rules')?.items ?? []).flatMap((r) =>
            r.object ? [armExportRule(r.span, r.object)] : [],
          ),
          call: at.call.name,
        }),
      );
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Terraform: Azure/avm-res-netapp-netappaccount/azurerm (0.1.0 to 0.3.0: variables.tf,
// main.capacity-pools.tf, main.volumes.tf, modules/capacity-pool, modules/volume)

const TERRAFORM_ACCOUNT_INPUTS: Inputs = {
  top: [
    'location',
    'name',
    'resource_group_name',
    'active_directories',
    'backup_policies',
    'backup_vaults',
    'capacity_pools',
    'customer_managed_key',
    'enable_telemetry',
    'inherit_tags_from_parent_resource',
    'lock',
    'managed_identities',
    'role_assignments',
    'snapshot_policies',
    'subscription_id',
    'tags',
    'volumes',
  ],
  pool: [
    'name',
    'cool_access',
    'encryption_type',
    'size',
    'qos_type',
    'service_level',
    'tags',
    'timeouts',
    'role_assignments',
  ],
  volume: [
    'name',
    'capacity_pool_map_key',
    'subnet_resource_id',
    'tags',
    'avs_data_store',
    'backup_policy_map_key',
    'backup_vault_map_key',
    'backup_policy_enforced',
    'cool_access',
    'cool_access_retrieval_policy',
    'coolness_period',
    'creation_token',
    'default_quota_enabled',
    'default_group_quota_in_kibs',
    'default_user_quota_in_kibs',
    'delete_base_snapshot',
    'enable_sub_volumes',
    'encryption_key_source',
    'export_policy_rules',
    'key_vault_private_endpoint_resource_id',
    'is_large_volume',
    'kerberos_enabled',
    'ldap_enabled',
    'network_features',
    'protocol_types',
    'proximity_placement_group_resource_id',
    'security_style',
    'service_level',
    'smb_access_based_enumeration_enabled',
    'smb_continuously_available',
    'smb_encryption',
    'smb_non_browsable',
    'snapshot_directory_visible',
    'snapshot_policy_map_key',
    'throughput_mibps',
    'unix_permissions',
    'volume_size_in_gib',
    'volume_spec_name',
    'volume_type',
    'zone',
  ],
  rule: [
    'rule_index',
    'allowed_clients',
    'chown_mode',
    'cifs',
    'nfsv3',
    'nfsv41',
    'has_root_access',
    'kerberos5i_ro',
    'kerberos5i_rw',
    'kerberos5p_ro',
    'kerberos5p_rw',
    'kerberos5_ro',
    'kerberos5_rw',
    'unix_ro',
    'unix_rw',
  ],
};

/**
 * `capacity_pools = { key = { name, service_level, size (bytes), qos_type, cool_access } }` and
 * `volumes = { key = { name, capacity_pool_map_key, volume_size_in_gib (GiB, default 50),
 * protocol_types, throughput_mibps, service_level, export_policy_rules = { key = {...} }, zone } }`.
 * The pool submodule passes `size` to the API as bytes; the volume submodule multiplies
 * `volume_size_in_gib` into `usageThreshold`. A volume's `service_level` is its own input (written
 * or not, only a written one is read).
 */
function readTerraformAccount(at: KnownCall): KnownModuleEstate {
  const out = empty();
  const accountSymbol = `module.${at.call.name}`;
  out.accounts.push({
    kind: 'account',
    ...common(meta(at, accountSymbol, at.call.span, at.call.headSpan, at.args.get('name'))),
  });
  const poolSymbol = (key: string) => `${accountSymbol}.capacity_pools["${key}"]`;
  for (const [key, item] of entries(at.args.get('capacity_pools'))) {
    const p = item.object!;
    const name = p.field('name');
    const slip = decimalSlip(p.field('size'), 'The pool size');
    if (slip) out.slips.push(slip);
    out.pools.push({
      kind: 'pool',
      ...common(meta(at, poolSymbol(key), item.span, name?.span ?? item.span, name)),
      account: { symbol: accountSymbol },
      ...opt('serviceLevel', str(p.field('service_level'))),
      ...opt('size', size(p.field('size'), 'B')),
      ...opt('qos', str(p.field('qos_type'))),
      ...opt('coolAccess', bool(p.field('cool_access'))),
    });
  }
  for (const [key, item] of entries(at.args.get('volumes'))) {
    const v = item.object!;
    const vName = v.field('name');
    const poolKey = str(v.field('capacity_pool_map_key'));
    const pool: IacRef | undefined = poolKey?.value !== undefined ? { symbol: poolSymbol(poolKey.value) } : undefined;
    const m = {
      ...meta(at, `${accountSymbol}.volumes["${key}"]`, item.span, vName?.span ?? item.span, vName, v.field('tags')),
      account: { symbol: accountSymbol },
      ...(pool ? { pool } : {}),
    };
    const zone = num(v.field('zone'));
    const quota =
      size(v.field('volume_size_in_gib'), 'GiB') ??
      moduleDefaultSize(
        vName,
        item,
        KNOWN_MODULE_DEFAULTS.terraformVolumeGiB.value,
        'GiB',
        '`volume_size_in_gib` is not set: the module deploys',
      );
    out.volumes.push(
      volume(m, {
        serviceLevel: str(v.field('service_level')),
        quota,
        protocols: strList(v.field('protocol_types')),
        throughputMiBps: num(v.field('throughput_mibps')),
        largeVolume: bool(v.field('is_large_volume')),
        networkFeatures: str(v.field('network_features')),
        zones: zone && zone.value !== undefined ? { ...zone, value: [String(zone.value)] } : undefined,
        kerberos: bool(v.field('kerberos_enabled')),
        creationToken: str(v.field('creation_token')),
        coolAccess: bool(v.field('cool_access')),
        exportRules: entries(v.field('export_policy_rules')).map(([, r]) => terraformRule(r.span, r.object!)),
        call: at.call.name,
      }),
    );
  }
  return out;
}

function terraformRule(span: Span, o: Obj): IacExportRule {
  const clients = o.field('allowed_clients');
  const list = strList(clients);
  return {
    span,
    ...(list ? { allowedClients: { ...list, value: list.value?.join(',') } as IacValue<string> } : {}),
    ...exportRuleAccess(o, {
      rootAccess: 'has_root_access',
      kerberos: (flavor) => [`kerberos${flavor}_rw`, `kerberos${flavor}_ro`],
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// The table

const KNOWN_MODULES: readonly KnownModule[] = [
  {
    language: 'bicep',
    source: 'br/public:avm/res/net-app/net-app-account',
    title: 'the Azure Verified Module for NetApp accounts (Bicep, checked against 0.12.x)',
    checked: /^0\.12\.\d+$/,
    inputs: BICEP_ACCOUNT_INPUTS,
    read: readBicepAccount,
  },
  {
    language: 'terraform',
    source: 'azure/avm-res-netapp-netappaccount/azurerm',
    title: 'the Azure Verified Module for NetApp accounts (Terraform, checked against 0.1.0 to 0.3.0)',
    checked: /^0\.[0-3]\.\d+$/,
    inputs: TERRAFORM_ACCOUNT_INPUTS,
    read: readTerraformAccount,
  },
];

/** The row for a call's source, with the version it names (Bicep: the tag; Terraform: `version`). */
function knownModuleOf(
  at: Pick<KnownCall, 'language' | 'call' | 'version'>,
): { module: KnownModule; version?: string } | undefined {
  const written = at.call.source?.trim();
  if (!written || at.call.local) return undefined;
  if (at.language === 'bicep') {
    // `br/public:<path>:<tag>`, or the same module by its full registry address.
    const full = written.replace(/^br:mcr\.microsoft\.com\/bicep\//i, 'br/public:');
    const colon = full.lastIndexOf(':');
    if (colon <= full.indexOf(':')) return undefined;
    const path = full.slice(0, colon).toLowerCase();
    const module = KNOWN_MODULES.find((m) => m.language === 'bicep' && m.source === path);
    return module ? { module, version: full.slice(colon + 1) } : undefined;
  }
  const address = written
    .toLowerCase()
    .replace(/^registry\.terraform\.io\//, '')
    .replace(/\/\/.*$/, '');
  const module = KNOWN_MODULES.find((m) => m.language === 'terraform' && m.source === address);
  if (!module) return undefined;
  // Only an exact version (`0.3.0`, `= 0.3.0`) counts as one; a range may pick a newer one.
  const exact = at.version !== undefined ? /^\s*=?\s*v?(\d+\.\d+\.\d+)\s*$/.exec(at.version)?.[1] : undefined;
  return { module, ...(exact ? { version: exact } : {}) };
}

/** Whether a call is one of the table's modules (read or not): such a call is not "an unknown module". */
export function isKnownModuleSource(language: 'bicep' | 'terraform', call: IacModuleCall): boolean {
  return knownModuleOf({ language, call }) !== undefined;
}

/** How a hover names the known module a call uses, or undefined. */
export function knownModuleTitle(language: string, call: IacModuleCall): string | undefined {
  return language === 'bicep' || language === 'terraform' ? knownModuleOf({ language, call })?.module.title : undefined;
}

/** The symbol prefix of what a call of a known module gives (knownModules.ts names them so). */
export function knownModuleSymbol(language: string, call: IacModuleCall): string {
  return language === 'terraform' ? `module.${call.name}` : call.name;
}

/**
 * The estate a call of a known registry module deploys, or undefined: not a known module, or a
 * version whose inputs were not checked and that writes an input the checked versions do not
 * declare.
 */
export function readKnownModule(at: KnownCall): KnownModuleEstate | undefined {
  const found = knownModuleOf(at);
  if (!found) return undefined;
  const { module, version } = found;
  if (!(version !== undefined && module.checked.test(version)) && !namesAreKnown(at.args, module.inputs))
    return undefined;
  return module.read(at, version);
}

/** Every input the call writes, at every level the mapping reads, is one the checked versions declare. */
function namesAreKnown(args: ReadonlyMap<string, Field>, inputs: Inputs): boolean {
  const known = (names: readonly string[] | undefined, allowed: readonly string[]) =>
    (names ?? []).every((n) => allowed.includes(n));
  if (!known([...args.keys()], inputs.top)) return false;
  const objects = (f: Field | undefined): Obj[] => [
    ...(f?.items ?? []).flatMap((i) => (i.object ? [i.object] : [])),
    ...entries(f).map(([, e]) => e.object!),
  ];
  const pools = [...objects(args.get('capacityPools')), ...objects(args.get('capacity_pools'))];
  const volumes = [...pools.flatMap((p) => objects(p.field('volumes'))), ...objects(args.get('volumes'))];
  const rules = volumes.flatMap((v) => [
    ...objects(v.field('exportPolicy')?.object?.field('rules')),
    ...objects(v.field('export_policy_rules')),
  ]);
  return (
    pools.every((p) => known(p.keys?.(), inputs.pool)) &&
    volumes.every((v) => known(v.keys?.(), inputs.volume)) &&
    rules.every((r) => known(r.keys?.(), inputs.rule))
  );
}

// ---------------------------------------------------------------------------------------------
// Helpers

function empty(): KnownModuleEstate {
  return { accounts: [], pools: [], volumes: [], slips: [] };
}

/** A map of objects written as a constructor (`{ key = { ... } }`): its entries whose values are objects. */
function entries(f: Field | undefined): [string, Field & { object: Obj }][] {
  const map = f?.object;
  if (!map?.keys) return [];
  return map.keys().flatMap((key) => {
    const e = map.field(key);
    return e?.object ? [[key, e as Field & { object: Obj }] as [string, Field & { object: Obj }]] : [];
  });
}

function meta(at: KnownCall, symbol: string, span: Span, headSpan: Span, name: Field | undefined, tags?: Field): Meta {
  const n = str(name);
  const annotation = at.annotationOf(span);
  const required = at.requiredOf(span);
  return {
    symbol,
    span,
    headSpan,
    repeated: at.call.repeated,
    ...(n ? { name: n } : {}),
    ...(annotation ? { annotation } : {}),
    ...(required ? { required } : {}),
    ...(tags ? { tags } : {}),
  };
}

/**
 * A value the module deploys when the input is left out: placed on the entry's `name` key (where
 * the input would be added; not the name's value, so a finding on it says where it came from),
 * never edited.
 */
function moduleDefault(name: Field | undefined, item: Field, value: string, why: string): IacValue<string> {
  const span = name ? name.keySpan : item.span;
  return { value, span, keySpan: span, raw: value, origin: `${why} ${value}` };
}

function moduleDefaultSize(
  name: Field | undefined,
  item: Field,
  value: number,
  unit: IacSize['unit'],
  why: string,
): IacSize {
  const span = name ? name.keySpan : item.span;
  return { value, unit, span, keySpan: span, raw: String(value), origin: `${why} ${value} ${unit}` };
}

interface VolumeValues {
  readonly serviceLevel?: IacValue<string> | undefined;
  readonly quota?: IacSize | undefined;
  readonly protocols?: IacValue<readonly string[]> | undefined;
  readonly throughputMiBps?: IacValue<number> | undefined;
  readonly largeVolume?: IacValue<boolean> | undefined;
  readonly networkFeatures?: IacValue<string> | undefined;
  readonly zones?: IacValue<readonly string[]> | undefined;
  readonly kerberos?: IacValue<boolean> | undefined;
  readonly creationToken?: IacValue<string> | undefined;
  readonly coolAccess?: IacValue<boolean> | undefined;
  readonly exportRules: readonly IacExportRule[];
  /** The call's name. */
  readonly call: string;
}

function volume(m: Meta, v: VolumeValues): IacVolume {
  return {
    kind: 'volume',
    ...common(m),
    ...(m.account ? { account: m.account } : {}),
    ...(m.pool ? { pool: m.pool } : {}),
    ...opt('serviceLevel', v.serviceLevel),
    ...opt('quota', v.quota),
    ...opt('protocols', v.protocols),
    ...opt('throughputMiBps', v.throughputMiBps),
    ...opt('largeVolume', v.largeVolume),
    ...opt('networkFeatures', v.networkFeatures),
    ...opt('zones', v.zones),
    ...opt('kerberos', v.kerberos),
    ...opt('creationToken', v.creationToken),
    exportRules: v.exportRules,
    ...opt('coolAccess', v.coolAccess),
    mountTargets: [],
    ...workloadOpt(m, v.creationToken),
    ...requirementsOpt(m),
    moduleEntry: v.call,
  };
}
