import { COOL_ACCESS, SERVICE_LEVELS, isWorkloadKind, type ServiceLevel, type WorkloadKind } from '../facts';
import type { SpanEdit } from '../diagnostics';
import type { Span } from '../text/sourceText';
import { GiB, MiB, TiB, parseRate, parseSize, type Rate, type Size } from '../units/units';
import type {
  Located,
  ManifestAccount,
  ManifestCoolAccess,
  ManifestDocument,
  ManifestPool,
  ManifestRequirements,
  ManifestVolume,
  NetworkFeatures,
  Protocol,
  SecurityFlavor,
} from '../manifest/model';
import { summarizeVolumes } from '../manifest/summary';
import { noteDeclaredAddress } from '../manifest/model';
import type { VolumeSummary } from '../manifest/volumeSummary';

/**
 * The ANF estate as infrastructure code describes it, before it becomes the manifest model.
 * Each reader (terraform.ts, bicep.ts, arm.ts) fills it with values and where they are written;
 * `toManifest` maps it into the same account -> pool -> volume model a sizing manifest fills, so
 * the sizing rules, figures, hovers, tree and mount links work unchanged.
 */
// 'az-cli': `az netappfiles` JSON output and `az netappfiles ... create|update` commands (azCli.ts);
// 'az-powershell': `New-/Update-AzNetAppFiles*` (powershell.ts); 'trident': Trident backends and claims (trident.ts).
export type IacLanguage = 'terraform' | 'bicep' | 'arm' | 'az-cli' | 'az-powershell' | 'trident';

/** One value read from the code. `value` undefined: an expression anf-lint cannot evaluate. */
export interface IacValue<T> {
  readonly value?: T;
  /** The expression (or the literal). */
  readonly span: Span;
  readonly keySpan: Span;
  readonly raw: string;
  /** Where a fix may write: the literal's text without quotes. Absent for computed or referenced values. */
  readonly editSpan?: Span;
  /** Where the variables and locals it uses got their values ("`var.quota` = 4096, from terraform.tfvars line 3"). */
  readonly origin?: string;
  /**
   * Terraform: the variables (`var.x`) the value uses, also through locals. A module's caller may
   * set them (a `module` block's arguments), so a value of a called module that uses one is judged
   * where the caller sets it.
   */
  readonly vars?: readonly string[];
  /**
   * Why `value` is undefined, in words a user can act on ("`var.data_size` has no value in this
   * folder: set it in terraform.tfvars or name a var file in .anf-lint.yaml"). Hovers, the tree and
   * `anf-lint estate` show it instead of a guess, a 0 or an empty name.
   */
  readonly unknown?: string;
}

/** A size written in one unit: Terraform `size_in_tb` (TiB), `storage_quota_in_gb` (GiB), ARM bytes. */
export type SizeUnit = 'TiB' | 'GiB' | 'B';

export interface IacSize extends IacValue<number> {
  readonly unit: SizeUnit;
}

export interface IacExportRule {
  readonly span: Span;
  readonly allowedClients?: IacValue<string>;
  readonly nfsv3?: IacValue<boolean>;
  readonly nfsv41?: IacValue<boolean>;
  readonly cifs?: IacValue<boolean>;
  /** Terraform's `protocols_enabled` / `protocol` list. */
  readonly protocols?: IacValue<readonly string[]>;
  readonly rootAccess?: IacValue<boolean>;
  /** The strongest Kerberos flavour the rule enables (`kerberos_5p_read_write_enabled`, `kerberos5pReadWrite`, ...). */
  readonly kerberos?: 'krb5' | 'krb5i' | 'krb5p';
}

/** A reference to a parent: by the parent's symbol in the code, or by its (evaluated) name. */
export interface IacRef {
  readonly symbol?: string;
  /** One instance of a `count` or `for_each` resource (`azurerm_netapp_pool.p[0]`), where the reference names one. */
  readonly address?: string;
  readonly name?: IacValue<string>;
}

/** What every resource and subnet of the estate says of itself: where it is declared, and its name. */
export interface IacDeclared {
  /** `azurerm_netapp_pool.p`, `azurerm_virtual_network.vnet.subnet[1]`, the Bicep symbol, or the ARM resource path. */
  readonly symbol: string;
  /**
   * Where the resource is declared, for display when its name is unknown, never "(unnamed)" or an
   * empty name. Terraform: the address as `terraform plan` prints it, one per instance
   * (`azurerm_netapp_volume.data[1]`, `module.sap["site1"].azurerm_netapp_volume.data["log"]`);
   * ARM `resources[2][copyIndex 1]`, Bicep `volumes[2]`, a command's `az netappfiles volume create, line 24`.
   */
  readonly address?: string;
  readonly span: Span;
  /** The resource's first line (type and label). */
  readonly headSpan: Span;
  readonly repeated: boolean;
  readonly name?: IacValue<string>;
}

export interface IacResource extends IacDeclared {
  readonly apiVersion?: IacValue<string>;
  /**
   * A condition anf-lint could not evaluate decides whether the resource is deployed (ARM
   * `condition`, Bicep `if`, Terraform `count = var.x ? 1 : 0`): it is kept (a miss is worse), and
   * this says so: "deployed only if `<condition>`: its value is unknown: <reason>".
   */
  readonly deployedIf?: string;
}

export interface IacAccount extends IacResource {
  readonly kind: 'account';
}

export interface IacPool extends IacResource {
  readonly kind: 'pool';
  readonly account?: IacRef;
  readonly serviceLevel?: IacValue<string>;
  readonly size?: IacSize;
  readonly qos?: IacValue<string>;
  readonly customThroughputMiBps?: IacValue<number>;
  readonly coolAccess?: IacValue<boolean>;
  /**
   * Terraform module: a pool written in another file ("pools.tf line 3"), as a volume of this file
   * names it. Its settings are placed on the volume's `pool_name`; its size stays with its own file.
   */
  readonly declaredIn?: string;
}

/**
 * `IacWorkload.from` of a workload set by a `workload` tag, and by an `anf: workload` annotation:
 * compared whole, since other origins quote names (`its name \`tag-shared\``).
 */
export const FROM_WORKLOAD_TAG = 'its `workload` tag';
export const FROM_WORKLOAD_ANNOTATION = 'its `anf: workload` annotation';

export interface IacWorkload {
  readonly kind: WorkloadKind;
  readonly span: Span;
  /** Where it came from, for messages: "the `# anf: workload` annotation", "the `workload` tag", "the volume name". */
  readonly from: string;
}

/** A requirement written for a volume (annotation or tag): what it must deliver, not what it is. */
export interface IacRequired<T> {
  readonly value: T;
  readonly span: Span;
  readonly raw: string;
  /** "its `anf:` annotation", "its `required_throughput_mibps` tag". */
  readonly from: string;
}

export interface IacRequirements {
  readonly span: Span;
  readonly throughput?: IacRequired<Rate>;
  readonly capacity?: IacRequired<Size>;
}

export interface IacVolume extends IacResource {
  readonly kind: 'volume';
  readonly account?: IacRef;
  readonly pool?: IacRef;
  readonly serviceLevel?: IacValue<string>;
  readonly quota?: IacSize;
  readonly protocols?: IacValue<readonly string[]>;
  readonly throughputMiBps?: IacValue<number>;
  readonly largeVolume?: IacValue<boolean>;
  readonly networkFeatures?: IacValue<string>;
  readonly zones?: IacValue<readonly string[]>;
  readonly kerberos?: IacValue<boolean>;
  readonly creationToken?: IacValue<string>;
  readonly exportRules: readonly IacExportRule[];
  readonly coolAccess?: IacValue<boolean>;
  readonly mountTargets: readonly string[];
  readonly workload?: IacWorkload;
  /** `# anf: throughput=400MiB/s capacity=2TiB`, or the `required_throughput_mibps` / `required_capacity_gib` tags. */
  readonly requirements?: IacRequirements;
  /**
   * The application volume group that declares the volume (`azurerm_netapp_volume_group_sap_hana`,
   * `Microsoft.NetApp/netAppAccounts/volumeGroups`): its symbol. Volume groups need manual QoS
   * pools, so a group volume whose pool is not in the file is in a manual QoS pool.
   */
  readonly volumeGroup?: string;
  /** A registry module call anf-lint knows (knownModules.ts) declares the volume as an entry of its `volumes`: the call's name. */
  readonly moduleEntry?: string;
  /** The delegated subnet the volume is created in (`subnet_id`, `subnetId`, `--subnet`), where the code names one (subnets.ts). */
  readonly subnet?: IacSubnetLink;
}

/** A finding the reader makes while it reads (a decimal multiplier in a byte expression). */
export interface IacSlip {
  readonly span: Span;
  readonly message: string;
  readonly edits: readonly SpanEdit[];
}

export interface IacEstate {
  readonly language: IacLanguage;
  readonly accounts: readonly IacAccount[];
  readonly pools: readonly IacPool[];
  readonly volumes: readonly IacVolume[];
  readonly slips: readonly IacSlip[];
  /** Subnets the file declares (subnets.ts), for the delegated-subnet checks (ANF414-ANF416). */
  readonly subnets?: readonly IacSubnet[];
  /** Terraform `azurerm_subnet_network_security_group_association` resources of the file. */
  readonly nsgAssociations?: readonly IacNsgAssociation[];
  /**
   * Terraform: a reference this file cannot resolve alone (a variable, local or resource of another
   * file, a variable a .tfvars file may set). The workspace then reads the file with its module.
   */
  readonly unresolved?: boolean;
  /**
   * Terraform, read with its module: `var.x` references with no `variable "x"` block in any `.tf`
   * file of the folder (ANF420). Terraform refuses them; anf-lint says so instead of a silent unknown.
   */
  readonly undeclared?: readonly { readonly span: Span; readonly name: string }[];
  /** Terraform: the reading passed its work budget (issue 32): what was not read, for ANF422. */
  readonly stopped?: string;
  /** Terraform: the `module` blocks of the file (local or not); see terraformModules.ts. */
  readonly calls?: readonly IacModuleCall[];
  /**
   * Terraform: the folder is a module that `module` blocks of other files call (their URIs). A
   * value of it that uses a variable is judged in each caller's instance, not here.
   */
  readonly calledBy?: readonly string[];
}

/** A Terraform `module "name" { source = "..." }` block. */
export interface IacModuleCall {
  readonly name: string;
  /** The `source` as written, when it is a plain string. */
  readonly source?: string;
  /** `source` is a local path (`./modules/anf`, `../anf`): the module is a folder of this repository. */
  readonly local: boolean;
  readonly span: Span;
  /** `module "name"`, up to the opening brace. */
  readonly headSpan: Span;
  readonly sourceSpan?: Span;
  /** `count` or `for_each`: how many instances there are is unknown. */
  readonly repeated: boolean;
  /** One instance of a block with `for_each` over keys anf-lint knows: its key (`module.name["key"]`). */
  readonly key?: string;
  /** One instance of a Bicep module declaration in a `[for ...]` loop over an array anf-lint knows: its position (`module.name[0]`). */
  readonly index?: number;
  /** ARM: why a nested deployment's `templateLink` is not read (a URL, a template spec, an unknown path). */
  readonly unread?: string;
}

// ---------------------------------------------------------------------------------------------
// Mapping into the manifest model

const UNIT_BYTES: Record<SizeUnit, number> = { TiB, GiB, B: 1 };

// Every value from infrastructure code carries a `rewrite`: manifest-syntax edits (inserting a
// `key: value` line) check for it and stay out of HCL, Bicep and JSON.
const AS_WRITTEN = (text: string) => text;

function located<T>(
  v: IacValue<unknown>,
  value: T,
  rewrite: (text: string) => string | undefined = AS_WRITTEN,
): Located<T> {
  return {
    value,
    span: v.span,
    keySpan: v.keySpan,
    raw: v.raw,
    ...(v.editSpan ? { editSpan: v.editSpan } : {}),
    rewrite,
  };
}

function wholeOrUndefined(n: number): string | undefined {
  return Number.isFinite(n) && Number.isInteger(n) ? String(n) : undefined;
}

function sizeOf(v: IacSize | undefined): Located<Size> | undefined {
  if (!v || v.value === undefined) return undefined;
  const per = UNIT_BYTES[v.unit];
  const size: Size = { bytes: v.value * per, amount: v.value, unit: v.unit, system: 'binary' };
  return located(v, size, (text) => {
    const parsed = parseSize(text);
    return parsed.ok ? wholeOrUndefined(parsed.value.bytes / per) : undefined;
  });
}

function rateOf(v: IacValue<number> | undefined): Located<Rate> | undefined {
  if (!v || v.value === undefined) return undefined;
  const rate: Rate = { bytesPerSecond: v.value * MiB, amount: v.value, unit: 'MiB/s', system: 'binary', bits: false };
  return located(v, rate, (text) => {
    const parsed = parseRate(text);
    return parsed.ok ? wholeOrUndefined(parsed.value.bytesPerSecond / MiB) : undefined;
  });
}

function known<T>(v: IacValue<T> | undefined): v is IacValue<T> & { value: T } {
  return v !== undefined && v.value !== undefined;
}

function serviceLevelOf(v: IacValue<string> | undefined): Located<ServiceLevel> | undefined {
  if (!known(v)) return undefined;
  const level = SERVICE_LEVELS.find((l) => l.toLowerCase() === v.value.toLowerCase());
  return level ? located(v, level) : undefined;
}

const PROTOCOL_NAMES: Record<string, Protocol> = { nfsv3: 'NFSv3', 'nfsv4.1': 'NFSv4.1', cifs: 'SMB', smb: 'SMB' };

export function protocolOf(text: string): Protocol | undefined {
  return PROTOCOL_NAMES[text.toLowerCase()];
}

function unknownNames(pairs: readonly [string, IacValue<unknown> | undefined][]): string[] {
  return pairs.filter(([, v]) => v !== undefined && v.value === undefined).map(([name]) => name);
}

/** The pool of this file a volume is in (by reference or by name), if any. */
export function poolOfVolume(estate: IacEstate, volume: IacVolume): IacPool | undefined {
  return resourceByRef(estate.pools, volume.pool);
}

/**
 * A list of resources by symbol and by known name, the first of each, as `list.find` would find
 * them: built once per list (a 10 MiB file has tens of thousands of volumes and pools, and each
 * volume, finding and pool looked its resource up by scanning the list, issue 32). Estates are not
 * changed once read; the length is checked anyway.
 */
interface ResourceIndex {
  readonly length: number;
  readonly bySymbol: ReadonlyMap<string, IacResource>;
  readonly byName: ReadonlyMap<string, IacResource>;
  readonly byAddress: ReadonlyMap<string, IacResource>;
}

const resourceIndexes = new WeakMap<readonly IacResource[], ResourceIndex>();

function indexOf(list: readonly IacResource[]): ResourceIndex {
  const made = resourceIndexes.get(list);
  if (made && made.length === list.length) return made;
  const bySymbol = new Map<string, IacResource>();
  const byName = new Map<string, IacResource>();
  const byAddress = new Map<string, IacResource>();
  for (const resource of list) {
    if (!bySymbol.has(resource.symbol)) bySymbol.set(resource.symbol, resource);
    if (known(resource.name) && !byName.has(resource.name.value)) byName.set(resource.name.value, resource);
    if (resource.address !== undefined && !byAddress.has(resource.address)) byAddress.set(resource.address, resource);
  }
  const index = { length: list.length, bySymbol, byName, byAddress };
  resourceIndexes.set(list, index);
  return index;
}

/** The first resource of `list` with this symbol. */
export function resourceBySymbol<T extends IacResource>(list: readonly T[], symbol: string | undefined): T | undefined {
  return symbol === undefined ? undefined : (indexOf(list).bySymbol.get(symbol) as T | undefined);
}

/** The first resource of `list` a reference names: by symbol when it has one, else by known name. */
function resourceByRef<T extends IacResource>(list: readonly T[], ref: IacRef | undefined): T | undefined {
  if (!ref) return undefined;
  // An instance the reference names, else the block's first (its instances unknown, it was read once).
  const instance = ref.address !== undefined ? (indexOf(list).byAddress.get(ref.address) as T | undefined) : undefined;
  if (instance) return instance;
  if (ref.symbol !== undefined) return resourceBySymbol(list, ref.symbol);
  return known(ref.name) ? (indexOf(list).byName.get(ref.name.value) as T | undefined) : undefined;
}

/**
 * Each volume's manifest form, by the volume read: a block reused after an edit (reuse.ts) gives the
 * same object, so its conversion is not made again. `volumeOf` reads nothing but the volume.
 */
const converted = new WeakMap<IacVolume, ManifestVolume>();

function volumeOf(v: IacVolume): ManifestVolume {
  let made = converted.get(v);
  if (!made) {
    converted.set(v, (made = convertVolume(v)));
    readFrom.set(made, v);
    noteDeclaredAddress(made, v.address);
  }
  return made;
}

/**
 * The resource a manifest-model account, pool or volume was mapped from: the estate inventory
 * (core/estate/inventory.ts) reads its address and why a value is unknown (`IacValue.unknown`).
 */
const readFrom = new WeakMap<object, IacResource>();

export function iacResourceOf(made: ManifestAccount | ManifestPool | ManifestVolume): IacResource | undefined {
  return readFrom.get(made);
}

function convertVolume(v: IacVolume): ManifestVolume {
  const protocols = known(v.protocols) ? v.protocols.value.flatMap((p) => (protocolOf(p) ? [protocolOf(p)!] : [])) : [];
  const cool: ManifestCoolAccess | undefined = known(v.coolAccess)
    ? {
        node: located(v.coolAccess, v.coolAccess.value as unknown),
        enabled: v.coolAccess.value,
        enabledValue: located(v.coolAccess, v.coolAccess.value),
        coolnessPeriodDays: COOL_ACCESS.coolnessPeriodDefaultDays.value,
        retrievalPolicy: 'Default',
        tieringPolicy: 'Auto',
      }
    : undefined;
  const flavors = v.exportRules.flatMap((r) => (r.kerberos ? [r.kerberos] : []));
  const strongest = (['krb5p', 'krb5i', 'krb5'] as const).find((f) => flavors.includes(f));
  const security: SecurityFlavor | undefined =
    known(v.kerberos) && v.kerberos.value ? (strongest ?? 'krb5') : undefined;
  const quota = sizeOf(v.quota);
  const throughput = rateOf(v.throughputMiBps);
  const networkFeatures = known(v.networkFeatures)
    ? NETWORK_FEATURES[v.networkFeatures.value.toLowerCase()]
    : undefined;
  const unknown = unknownNames([
    ['quota', v.quota],
    ['throughput', v.throughputMiBps],
    ['protocols', v.protocols],
    ['name', v.name],
    ['serviceLevel', v.serviceLevel],
    ['largeVolume', v.largeVolume],
    ['exportPath', v.creationToken],
  ]);
  return {
    span: v.span,
    headSpan: v.headSpan,
    path: [v.symbol],
    ...(known(v.name) ? { name: located(v.name, v.name.value) } : {}),
    ...(quota ? { quota } : {}),
    ...(known(v.largeVolume) ? { largeVolume: located(v.largeVolume, v.largeVolume.value) } : {}),
    ...(networkFeatures ? { networkFeatures: located(v.networkFeatures!, networkFeatures) } : {}),
    protocols: known(v.protocols) ? protocols.map((p) => located(v.protocols!, p)) : [],
    ...(known(v.protocols) ? { protocolsNode: located(v.protocols, v.protocols.value as unknown) } : {}),
    ...(security && v.kerberos ? { security: located(v.kerberos, security) } : {}),
    ...(throughput ? { throughput } : {}),
    ...(cool ? { coolAccess: cool } : {}),
    ...(v.workload
      ? {
          workload: {
            value: v.workload.kind,
            span: v.workload.span,
            keySpan: v.workload.span,
            raw: v.workload.kind,
            rewrite: AS_WRITTEN,
          },
        }
      : {}),
    ...(known(v.creationToken)
      ? {
          exportPath: located(
            v.creationToken,
            v.creationToken.value.startsWith('/') ? v.creationToken.value : `/${v.creationToken.value}`,
          ),
        }
      : {}),
    ...(v.mountTargets[0] !== undefined
      ? { mountTarget: located({ span: v.headSpan, keySpan: v.headSpan, raw: v.mountTargets[0] }, v.mountTargets[0]) }
      : {}),
    ...(unknown.length > 0 ? { unknown } : {}),
    ...(v.repeated ? { repeated: true } : {}),
    ...(v.requirements ? { requirements: requirementsOf(v.requirements) } : {}),
    ...(v.volumeGroup ? { applicationVolumeGroup: v.volumeGroup } : {}),
  };
}

/** Requirements are never edited by a fix (they say what is needed): located without an edit span. */
function requirementsOf(r: IacRequirements): ManifestRequirements {
  const at = <T>(x: IacRequired<T>): Located<T> => ({
    value: x.value,
    span: x.span,
    keySpan: x.span,
    raw: x.raw,
    rewrite: () => undefined,
  });
  return {
    span: r.span,
    ...(r.throughput ? { throughput: at(r.throughput) } : {}),
    ...(r.capacity ? { capacity: at(r.capacity) } : {}),
  };
}

const NETWORK_FEATURES: Record<string, NetworkFeatures> = {
  basic: 'Basic',
  standard: 'Standard',
  basic_standard: 'Standard',
  standard_basic: 'Basic',
};

function poolOf(
  p: IacPool | undefined,
  members: readonly IacVolume[],
  fallback: { name?: IacValue<string>; serviceLevel?: IacValue<string>; span: Span; manual?: boolean },
  elsewhere: readonly ElsewhereVolume[] = [],
): ManifestPool {
  const volumes = members.map(volumeOf);
  // Network features are set per volume in infrastructure code; the pool minimum depends on them.
  const basic = members.find(
    (v) => known(v.networkFeatures) && NETWORK_FEATURES[v.networkFeatures.value.toLowerCase()] === 'Basic',
  );
  const level = serviceLevelOf(p?.serviceLevel ?? fallback.serviceLevel);
  const size = sizeOf(p?.size);
  const qos = p && known(p.qos) ? p.qos.value.toLowerCase() : undefined;
  const throughput = p ? rateOf(p.customThroughputMiBps) : undefined;
  const name = p?.name ?? fallback.name;
  const unknown = p
    ? unknownNames([
        ['size', p.size],
        ['serviceLevel', p.serviceLevel],
        ['qos', p.qos],
        ['throughput', p.customThroughputMiBps],
      ])
    : ['size'];
  const pool: ManifestPool = {
    span: p?.span ?? fallback.span,
    headSpan: p?.headSpan ?? fallback.span,
    path: [p?.symbol ?? '?'],
    ...(known(name) ? { name: located(name, name.value) } : {}),
    ...(level ? { serviceLevel: level } : {}),
    ...(size ? { size } : {}),
    ...(p && known(p.qos) && (qos === 'auto' || qos === 'manual')
      ? { qos: located(p.qos, qos as 'auto' | 'manual', (text) => text.charAt(0).toUpperCase() + text.slice(1)) }
      : !p && fallback.manual
        ? {
            qos: {
              value: 'manual' as const,
              span: fallback.span,
              keySpan: fallback.span,
              raw: 'Manual',
              rewrite: () => undefined,
            },
          }
        : {}),
    ...(throughput ? { throughput } : {}),
    ...(p && known(p.coolAccess) ? { coolAccess: located(p.coolAccess, p.coolAccess.value) } : {}),
    ...(basic ? { networkFeatures: located(basic.networkFeatures!, 'Basic' as NetworkFeatures) } : {}),
    volumes,
    ...(unknown.length > 0 ? { unknown } : {}),
    ...(p?.repeated ? { repeated: true } : {}),
    ...(elsewhere.length > 0 ? { elsewhere: elsewhere.map((e) => ({ uri: e.uri, volume: volumeOf(e.volume) })) } : {}),
  };
  if (p) {
    readFrom.set(pool, p);
    noteDeclaredAddress(pool, p.address);
  }
  return pool;
}

/** A volume of a pool written in another file of the same Terraform module. */
export interface ElsewhereVolume {
  readonly uri: string;
  readonly volume: IacVolume;
}

export interface EstateModel {
  readonly manifest: ManifestDocument;
  readonly volumes: VolumeSummary[];
}

/**
 * Maps an estate into the manifest model: pools under their accounts, volumes under their pools
 * (by reference or by name). A volume whose pool is not in this file gets a pool of its own
 * with the volume's service level and an unknown size; likewise an account.
 */
export function toManifest(
  estate: IacEstate,
  uri: string,
  syntaxErrors: boolean,
  elsewhere?: ReadonlyMap<string, readonly ElsewhereVolume[]>,
): EstateModel {
  const accounts: ManifestAccount[] = [];
  const poolVolumes = new Map<IacPool, IacVolume[]>();
  const orphanVolumes = new Map<string, IacVolume[]>();
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const volume of estate.volumes) {
    const pool = resourceByRef(estate.pools, volume.pool);
    if (pool) {
      push(poolVolumes, pool, volume);
      continue;
    }
    const key = `${volume.account?.symbol ?? volume.account?.name?.value ?? '?'}|${volume.pool?.symbol ?? volume.pool?.name?.value ?? '?'}`;
    push(orphanVolumes, key, volume);
  }
  const accountPools = new Map<IacAccount | undefined, ManifestPool[]>();
  const add = (account: IacAccount | undefined, pool: ManifestPool) => push(accountPools, account, pool);
  for (const pool of estate.pools)
    add(
      resourceByRef(estate.accounts, pool.account),
      poolOf(
        pool,
        poolVolumes.get(pool) ?? [],
        { span: pool.span },
        pool.declaredIn ? [] : elsewhere?.get(pool.symbol),
      ),
    );
  for (const members of orphanVolumes.values()) {
    const first = members[0]!;
    // Application volume groups require manual QoS pools: their volumes' throughput is assigned.
    // So does any volume that assigns a throughput (`throughput_in_mibps`, `throughputMibps`): the
    // service accepts one only in a manual QoS pool, and the pool is not in the code anf-lint read.
    const grouped = members.every((v) => v.volumeGroup !== undefined);
    const assigns = members.some((v) => v.throughputMiBps !== undefined);
    const pool = poolOf(undefined, members, {
      ...(first.pool?.name ? { name: first.pool.name } : {}),
      ...(first.serviceLevel ? { serviceLevel: first.serviceLevel } : {}),
      span: first.headSpan,
      ...(grouped || assigns ? { manual: true } : {}),
    });
    add(resourceByRef(estate.accounts, first.account), pool);
  }
  for (const account of estate.accounts) {
    const made: ManifestAccount = {
      span: account.span,
      headSpan: account.headSpan,
      path: [account.symbol],
      ...(known(account.name) ? { name: located(account.name, account.name.value) } : {}),
      pools: accountPools.get(account) ?? [],
    };
    readFrom.set(made, account);
    noteDeclaredAddress(made, account.address);
    accounts.push(made);
  }
  const loose = accountPools.get(undefined);
  if (loose && loose.length > 0) {
    const first = loose[0]!;
    accounts.push({ span: first.span, headSpan: first.headSpan, path: ['?'], pools: loose });
  }
  const manifest: ManifestDocument = { format: 'iac', syntaxErrors, accounts };
  return { manifest, volumes: summarizeVolumes(manifest, uri) };
}

// ---------------------------------------------------------------------------------------------
// Workload from names (strong conventions only)

// SAP's naming for HANA volumes on ANF: <SID>-data-mnt00001, <SID>-log-mnt00001, <SID>-shared.
// A data, log or shared volume without the host's `-mntNNNNN` is strong only with an upper-case SID,
// as SAP writes it: `eda-data`, `app-log` or `web-shared` name volumes of any workload (EDA's want
// NFSv3, which HANA's checks would call an error; a web farm's shared files are no /hana/shared).
// A lower-case `hn1-shared` is HANA's only beside its system's data or log volume: `withHanaSharedBySid`.
const SAP_VOLUME = /^(?:[A-Za-z][A-Za-z0-9]{2}-(data|log)-mnt\d{5}|[A-Z][A-Z0-9]{2}-(data|log|shared))$/;
const HANA_WORD = /hana/i;

/** The workload a volume's name or export path strongly suggests, or undefined. */
export function workloadFromName(name: string | undefined, path: string | undefined): WorkloadKind | undefined {
  for (const text of [name, path]) {
    if (!text) continue;
    const sap = SAP_VOLUME.exec(text);
    if (sap) return `sap-hana-${(sap[1] ?? sap[2])!.toLowerCase()}` as WorkloadKind;
    // A HANA backup target (`hana-data-backup`, `hanalog-backup`) holds files, not HANA's own data or log.
    if (HANA_WORD.test(text) && !/backup/i.test(text)) {
      if (/(?:^|[^a-z])data(?:[^a-z]|$)|hanadata/i.test(text)) return 'sap-hana-data';
      if (/(?:^|[^a-z])log(?:[^a-z]|$)|hanalog/i.test(text)) return 'sap-hana-log';
      if (/(?:^|[^a-z])shared(?:[^a-z]|$)|hanashared/i.test(text)) return 'sap-hana-shared';
    }
  }
  return undefined;
}

/** The SID (lower case) of a HANA data or log volume's name or path in SAP's form: `hn1` of `HN1-data-mnt00001`, `hn1-log`. */
const SID_OF_DATA_OR_LOG = /^([A-Za-z][A-Za-z0-9]{2})-(?:data|log)(?:-mnt\d{5})?$/;
/** A shared volume named for a SID in any case: `hn1-shared`. */
const SID_OF_SHARED = /^([A-Za-z][A-Za-z0-9]{2})-shared$/;

/**
 * The estate with SAP HANA's shared workload on each volume that has none and whose name (else
 * export path) is `<sid>-shared` with the SID of a SAP HANA data or log volume of the same estate
 * (`hn1-shared` beside `hn1-data-mnt00001` or `HN1-log`; the SID in any case).
 *
 * Why here and not in `workloadFromName`: the name alone cannot tell SAP's `hn1-shared` from a web
 * farm's `web-shared`, and a wrong guess is a false alarm (HANA's mount and subnet checks, ANF408
 * taking the pool's `web-data` for HANA data). A data or log volume of the same SID is SAP's
 * naming at work. The estate is one reading: a file with the module instances and linked
 * templates it reads (`estateRead` calls this), so `workloadFromName` stays a function of one name.
 * A Terraform folder read as a module passes its other files' volumes as `neighbours`
 * (terraformModules.ts `evaluate`): Terraform reads the folder as one. A folder whose files are each
 * read alone (nothing in them refers to another file, and no `.tfvars`) is not: there a `hn1-shared`
 * in another file than its data volume sets nothing (a miss, never a false alarm).
 * The data or log volume counts by its workload, from its name or stated (annotation, tag, volume
 * spec): one annotated `workload=general` is no HANA system's. A volume with a workload of its own
 * keeps it. Volumes are copied, never changed: the incremental reading keeps them per block (reuse.ts).
 */
export function withHanaSharedBySid(estate: IacEstate, neighbours: readonly IacVolume[] = []): IacEstate {
  const systems = new Map<string, string>();
  for (const volumes of [estate.volumes, neighbours])
    for (const volume of volumes) {
      const kind = volume.workload?.kind;
      if (kind !== 'sap-hana-data' && kind !== 'sap-hana-log') continue;
      for (const text of [volume.name?.value, volume.creationToken?.value]) {
        const sid = text === undefined ? undefined : SID_OF_DATA_OR_LOG.exec(text)?.[1]?.toLowerCase();
        if (sid !== undefined && !systems.has(sid)) systems.set(sid, text!);
      }
    }
  if (systems.size === 0) return estate;
  let changed = false;
  const volumes = estate.volumes.map((volume) => {
    if (volume.workload) return volume;
    for (const [value, what] of [
      [volume.name, 'name'],
      [volume.creationToken, 'export path'],
    ] as const) {
      const sid = value?.value === undefined ? undefined : SID_OF_SHARED.exec(value.value)?.[1]?.toLowerCase();
      const system = sid === undefined ? undefined : systems.get(sid);
      if (!value || system === undefined) continue;
      changed = true;
      const from = `its ${what} \`${value.value}\` and SAP HANA volume \`${system}\` of the same SID`;
      return { ...volume, workload: { kind: 'sap-hana-shared' as const, span: value.span, from } };
    }
    return volume;
  });
  return changed ? { ...estate, volumes } : estate;
}

/**
 * The workload an application volume group's volume spec names: SAP HANA `data`, `log`, `shared`
 * (its `data-backup` and `log-backup` volumes are backup targets: `general`), Oracle `ora-*`.
 */
export function workloadFromVolumeSpec(
  applicationType: string | undefined,
  spec: string | undefined,
): WorkloadKind | undefined {
  if (!spec) return undefined;
  const s = spec.toLowerCase();
  const app = (applicationType ?? '').toLowerCase();
  if (app === 'oracle' || s.startsWith('ora-')) return 'oracle';
  if (app !== '' && app !== 'sap-hana') return undefined;
  if (s === 'data' || s === 'log' || s === 'shared') return `sap-hana-${s}` as WorkloadKind;
  if (s === 'data-backup' || s === 'log-backup') return 'general';
  return undefined;
}

export function workloadKindOf(text: string | undefined): WorkloadKind | undefined {
  return text !== undefined && isWorkloadKind(text) ? text : undefined;
}

/** How to set a workload explicitly, in the file's own comment syntax. */
export function overrideHint(language: IacEstate['language']): string {
  const comment = language === 'bicep' ? '//' : '#';
  // A Kubernetes claim has no tags anf-lint reads: its comment annotation says it.
  if (language === 'trident') return 'write `# anf: workload=<kind>` above the PersistentVolumeClaim';
  return language === 'terraform' || language === 'bicep'
    ? `write \`${comment} anf: workload=<kind>\` above the resource or give it a \`workload\` tag`
    : 'give the resource a `workload` tag';
}

/**
 * How to override a volume's workload that came from `from`: change the tag it came from, or
 * annotate the place the volume is written (a volume group's `volume` block or `volumes` entry,
 * else the resource).
 */
export function workloadOverrideHint(
  language: IacEstate['language'],
  volume: Pick<IacVolume, 'volumeGroup' | 'moduleEntry'> | undefined,
  from: string,
): string {
  if (from === FROM_WORKLOAD_TAG) return 'change the tag';
  if (volume?.moduleEntry && (language === 'terraform' || language === 'bicep'))
    return `write \`${language === 'bicep' ? '//' : '#'} anf: workload=<kind>\` above its entry in \`volumes\` or give it a \`workload\` tag`;
  if (volume?.volumeGroup && language === 'terraform')
    return 'write `# anf: workload=<kind>` above its `volume` block or give it a `workload` tag';
  if (volume?.volumeGroup && language === 'bicep')
    return 'write `// anf: workload=<kind>` above its entry in `volumes` or give it a `workload` tag';
  return overrideHint(language);
}

/**
 * For messages about a volume's workload in infrastructure code: where the workload came from and
 * how to override it (" (from its name `hana-log`; write ... to override it)"), or '' when the
 * volume is not one of `estate`'s or its workload was written explicitly with an annotation.
 */
export function workloadOrigin(estate: IacEstate | undefined, symbol: string | undefined): string {
  const volume = estate ? resourceBySymbol(estate.volumes, symbol) : undefined;
  const workload = volume?.workload;
  if (!estate || !workload || workload.from === FROM_WORKLOAD_ANNOTATION) return '';
  return ` (from ${workload.from}; ${workloadOverrideHint(estate.language, volume, workload.from)} to override it)`;
}

// Subnets (subnets.ts reads them, for the delegated-subnet checks ANF414-ANF416)

/** Something attached to a subnet (an NSG), where it is written. */
export interface IacAttachment {
  readonly span: Span;
  readonly raw: string;
}

/** A subnet: `azurerm_subnet.anf`, `azurerm_virtual_network.vnet.subnet[1]`, a Bicep symbol, an ARM name. */
export interface IacSubnet extends IacDeclared {
  readonly kind: 'subnet';
  /** The virtual network's name, where the code says it. */
  readonly vnetName?: IacValue<string>;
  /** `address_prefixes`, `addressPrefixes`, or `addressPrefix` as a list of one. */
  readonly prefixes?: IacValue<readonly string[]>;
  /** The service each delegation names (`Microsoft.NetApp/volumes`). */
  readonly delegations: readonly IacValue<string>[];
  /** An NSG written on the subnet itself (`networkSecurityGroup`, an inline `security_group`). */
  readonly nsg?: IacAttachment;
  /** `service_endpoints`, `serviceEndpoints[].service`. */
  readonly serviceEndpoints?: IacValue<readonly string[]>;
}

/** How a volume (or an NSG association) names a subnet: a resource of the code, or a subnet ID's names. */
export interface IacSubnetLink {
  readonly symbol?: string;
  readonly name?: string;
  readonly vnet?: string;
  readonly span: Span;
  readonly raw: string;
}

/** Terraform `azurerm_subnet_network_security_group_association`: an NSG put on a subnet by another resource. */
export interface IacNsgAssociation {
  readonly subnet: IacSubnetLink;
  readonly span: Span;
  readonly headSpan: Span;
  readonly raw: string;
}
