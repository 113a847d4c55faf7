import type { ResolvedConfig } from '../config';
import type { ServiceLevel, WorkloadKind } from '../facts';
import {
  iacResourceOf,
  type IacLanguage,
  type IacPool,
  type IacResource,
  type IacValue,
  type IacVolume,
} from '../iac/estate';
import { computeManifestFigures, type PoolFigures, type VolumeFigures } from '../manifest/figures';
import {
  poolQos,
  type ManifestAccount,
  type ManifestDocument,
  type ManifestPool,
  type ManifestVolume,
} from '../manifest/model';
import type { VolumeSummary } from '../manifest/volumeSummary';
import type { Span } from '../text/sourceText';
import type { ParsedFile } from '../workspace/parsedFile';
import type { WorkspaceView } from '../workspace/workspaceView';

/**
 * What a repository deploys: every account, pool and volume, each once, with where it is written,
 * its evaluated values and figures (manifest/figures.ts, the same numbers as the hover and code
 * lens), and for each value anf-lint could not evaluate, why. `anf-lint estate`, its `--diff`, the
 * tree view and `anf-lint mount` read this one list.
 *
 * Each once: a Terraform or Bicep module read through its caller is listed as the caller's
 * instances (`module.anf["eu"].azurerm_netapp_volume.data`), not again on its own; a pool written
 * in another file of a Terraform module is listed in its own file. A manifest and infrastructure
 * code describing the same estate are two sources: both are listed, each under its own file.
 *
 * Unknown is never shown as a fact: a figure anf-lint cannot evaluate is `null` with a reason in
 * `unknown`, and a resource whose name is unknown is shown by its address or symbol.
 */

/** Where an estate is written: infrastructure code (iac/estate.ts `IacLanguage`) or a sizing manifest. */
export type EstateSource = IacLanguage | 'manifest';

export interface InventoryPlace {
  readonly uri: string;
  /** The name (or the resource's first line when the name is unknown): where a link goes. */
  readonly span: Span;
  /** 1-based. */
  readonly line: number;
  readonly source: EstateSource;
  /** The name as deployed, or, when it is unknown, the address or symbol in the code (never empty). */
  readonly name: string;
  readonly nameKnown: boolean;
  /** Infrastructure code: the resource's address (`module.anf["eu"].azurerm_netapp_volume.data`); undefined for a manifest. */
  readonly instance?: string;
  /** Why a value is unknown, one entry per value: `"quota: \`var.size\` has no value ..."`. */
  readonly unknown: readonly string[];
}

export interface InventoryAccount extends InventoryPlace {
  readonly kind: 'account';
  readonly model: ManifestAccount;
}

export interface InventoryPool extends InventoryPlace {
  readonly kind: 'pool';
  /** The account's name, or its address when the name is unknown; null when neither is written. */
  readonly account: string | null;
  readonly serviceLevel: ServiceLevel | null;
  readonly qos: 'auto' | 'manual';
  readonly sizeTiB: number | null;
  /** What the pool hands out (size x rate; Flexible: configured). */
  readonly throughputMiBps: number | null;
  readonly monthlyUsd: number | null;
  /** The pool is written in the file (false: volumes name a pool the files read do not declare). */
  readonly declared: boolean;
  readonly model: ManifestPool;
  readonly figures?: PoolFigures;
}

export interface InventoryVolume extends InventoryPlace {
  readonly kind: 'volume';
  readonly account: string | null;
  readonly pool: string | null;
  readonly serviceLevel: ServiceLevel | null;
  readonly qos: 'auto' | 'manual';
  readonly quotaGiB: number | null;
  readonly throughputMiBps: number | null;
  /** IOPS at `iopsBlockSizeBytes` (manifest/figures.ts `iopsAtBlockSize`). */
  readonly iops: number | null;
  readonly iopsBlockSizeBytes: number;
  readonly monthlyUsd: number | null;
  readonly workload?: WorkloadKind;
  /** `count`/`for_each` or a loop anf-lint could not expand: how many there are is unknown. */
  readonly repeated: boolean;
  /** What mounts link to (workspace `volumes()`): present when the volume has a name, quota and service level. */
  readonly summary?: VolumeSummary;
  readonly model: {
    readonly manifest: ManifestDocument;
    readonly account: ManifestAccount;
    readonly pool: ManifestPool;
    readonly volume: ManifestVolume;
  };
  readonly figures?: VolumeFigures;
}

export interface InventoryTotals {
  readonly accounts: number;
  readonly pools: number;
  readonly volumes: number;
  /** Sum of the known quotas; `unknownQuota` volumes are not in it. */
  readonly quotaGiB: number;
  readonly unknownQuota: number;
  /** Sum of the known volume throughput limits. */
  readonly throughputMiBps: number;
  readonly unknownThroughput: number;
  /**
   * What the pools cost a month: Azure bills a pool's provisioned size (and a Flexible pool's
   * throughput), not the volumes' quotas. Pools of unknown cost (`unknownMonthlyUsd`) are not in it.
   */
  readonly monthlyUsd: number;
  readonly unknownMonthlyUsd: number;
}

export interface EstateInventory {
  readonly accounts: readonly InventoryAccount[];
  readonly pools: readonly InventoryPool[];
  readonly volumes: readonly InventoryVolume[];
  readonly totals: InventoryTotals;
}

/** The configuration's prices for a file (each workspace folder may have its own). */
export type PricesOf = Pick<ResolvedConfig, 'prices'> | ((uri: string) => Pick<ResolvedConfig, 'prices'>);

/** Whether a file is listed: a manifest, or infrastructure code that is not a module its callers read. */
export function listsEstate(file: ParsedFile): boolean {
  return file.manifest !== undefined && !(file.iac?.calledBy && file.iac.calledBy.length > 0);
}

/** The inventory of every file of the workspace (sorted by URI, so the order is stable). */
export function estateInventory(
  workspace: WorkspaceView,
  prices: PricesOf,
  only?: (uri: string) => boolean,
): EstateInventory {
  const files = [...workspace.files()]
    .filter((f) => listsEstate(f) && (!only || only(f.uri)))
    .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  const summaries = new Map<string, VolumeSummary[]>();
  for (const s of workspace.volumes()) {
    const list = summaries.get(s.uri);
    if (list) list.push(s);
    else summaries.set(s.uri, [s]);
  }
  const accounts: InventoryAccount[] = [];
  const pools: InventoryPool[] = [];
  const volumes: InventoryVolume[] = [];
  for (const file of files) {
    const listed = fileInventory(
      file,
      typeof prices === 'function' ? prices(file.uri) : prices,
      summaries.get(file.uri) ?? [],
    );
    accounts.push(...listed.accounts);
    pools.push(...listed.pools);
    volumes.push(...listed.volumes);
  }
  return { accounts, pools, volumes, totals: totalsOf(accounts, pools, volumes) };
}

/** Several inventories (one per workspace root) as one, totals recomputed. */
export function combineInventories(parts: readonly EstateInventory[]): EstateInventory {
  if (parts.length === 1) return parts[0]!;
  const accounts = parts.flatMap((p) => p.accounts);
  const pools = parts.flatMap((p) => p.pools);
  const volumes = parts.flatMap((p) => p.volumes);
  return { accounts, pools, volumes, totals: totalsOf(accounts, pools, volumes) };
}

/** One file's accounts, pools and volumes. */
export function fileInventory(
  file: ParsedFile,
  prices: Pick<ResolvedConfig, 'prices'>,
  summaries: readonly VolumeSummary[] = file.volumes,
): Omit<EstateInventory, 'totals'> {
  const manifest = file.manifest!;
  const source: EstateSource = file.iac?.language ?? 'manifest';
  const figures = computeManifestFigures(manifest, prices);
  const lineOf = (span: Span) => file.source.positionAt(span.start).line + 1;
  // By name offset: a lookup per volume made a 30,000-volume manifest quadratic.
  const summaryAt = new Map<number, VolumeSummary[]>();
  for (const s of summaries) summaryAt.set(s.nameSpan.start, [...(summaryAt.get(s.nameSpan.start) ?? []), s]);
  const accounts: InventoryAccount[] = [];
  const pools: InventoryPool[] = [];
  const volumes: InventoryVolume[] = [];
  for (const account of manifest.accounts) {
    const accountResource = iacResourceOf(account);
    const accountName = nameOf(account.name, accountResource, account.path);
    // An account no file declares (volumes name one the code does not): not listed, named by the volumes' reference.
    if (source === 'manifest' || accountResource) {
      const span = account.name?.span ?? account.headSpan;
      accounts.push({
        kind: 'account',
        uri: file.uri,
        span,
        line: lineOf(span),
        source,
        ...accountName,
        ...instanceOf(accountResource),
        unknown: [
          ...(account.name ? [] : [reason('name', accountResource?.name, 'not given')]),
          ...repeatedReason(accountResource),
        ],
        model: account,
      });
    }
    for (const pool of account.pools) {
      const poolResource = iacResourceOf(pool) as IacPool | undefined;
      const firstVolume = pool.volumes[0] ? (iacResourceOf(pool.volumes[0]) as IacVolume | undefined) : undefined;
      const accountLabel =
        account.name?.value ?? accountResource?.address ?? accountResource?.symbol ?? refLabel(firstVolume?.account);
      const pf = figures.pool(pool);
      const declared = source === 'manifest' || poolResource !== undefined;
      const poolName = declared
        ? nameOf(pool.name, poolResource, pool.path)
        : pool.name
          ? { name: pool.name.value, nameKnown: true }
          : undefined;
      const poolLabel = poolName?.name ?? refLabel(firstVolume?.pool);
      // A pool written in another file of its Terraform module is listed there.
      if (declared && !poolResource?.declaredIn) {
        const span = pool.name?.span ?? pool.headSpan;
        const unknown: string[] = [];
        if (!pool.name) unknown.push(reason('name', poolResource?.name, 'not given'));
        if (!pool.serviceLevel) unknown.push(serviceLevelReason(poolResource?.serviceLevel, source));
        if (!pool.size) unknown.push(reason('size', poolResource?.size, 'not given'));
        if (pf?.budgetMiBps === undefined && pool.serviceLevel && pool.size) unknown.push('throughput: not given');
        if (pf?.monthlyCost === undefined)
          unknown.push(
            `monthly cost: follows the ${[!pool.serviceLevel ? 'service level' : '', !pool.size ? 'size' : ''].filter(Boolean).join(' and ') || 'pool'}, unknown`,
          );
        unknown.push(...repeatedReason(poolResource));
        pools.push({
          kind: 'pool',
          uri: file.uri,
          span,
          line: lineOf(span),
          source,
          ...poolName!,
          ...instanceOf(poolResource),
          account: accountLabel,
          serviceLevel: pool.serviceLevel?.value ?? null,
          qos: poolQos(pool),
          sizeTiB: pf?.sizeTiB ?? null,
          throughputMiBps: pf?.budgetMiBps ?? null,
          monthlyUsd: pf?.monthlyCost?.totalUsd ?? null,
          declared: true,
          unknown,
          model: pool,
          ...(pf ? { figures: pf } : {}),
        });
      }
      for (const volume of pool.volumes) {
        const volumeResource = iacResourceOf(volume) as IacVolume | undefined;
        const vf = figures.volume(volume);
        const span = volume.name?.span ?? volume.headSpan;
        // By name too: the volumes of a Terraform module instance may share a name's span (the `module` block's argument).
        const summary = volume.name
          ? summaryAt.get(volume.name.span.start)?.find((s) => s.name === volume.name!.value)
          : undefined;
        volumes.push({
          kind: 'volume',
          uri: file.uri,
          span,
          line: lineOf(span),
          source,
          ...nameOf(volume.name, volumeResource, volume.path),
          ...instanceOf(volumeResource),
          account: accountLabel,
          pool: poolLabel,
          serviceLevel: pool.serviceLevel?.value ?? null,
          qos: poolQos(pool),
          quotaGiB: vf?.quotaGiB ?? null,
          throughputMiBps: vf?.throughput?.mibps ?? null,
          iops: vf?.iopsAtBlockSize ?? null,
          iopsBlockSizeBytes: vf?.blockSizeBytes ?? 0,
          monthlyUsd: vf?.monthlyCostUsd ?? null,
          ...(volume.workload ? { workload: volume.workload.value } : {}),
          repeated: volume.repeated === true,
          ...(summary ? { summary } : {}),
          unknown: volumeUnknowns(source, pool, poolResource, declared, poolLabel, volume, volumeResource, vf),
          model: { manifest, account, pool, volume },
          ...(vf ? { figures: vf } : {}),
        });
      }
    }
  }
  return { accounts, pools, volumes };
}

function totalsOf(
  accounts: readonly InventoryAccount[],
  pools: readonly InventoryPool[],
  volumes: readonly InventoryVolume[],
): InventoryTotals {
  const sum = (values: readonly (number | null)[]) => values.reduce<number>((total, v) => total + (v ?? 0), 0);
  const unknown = (values: readonly (number | null)[]) => values.filter((v) => v === null).length;
  // Volumes whose pool no file declares: their pool's cost is unknown too.
  const listed = new Set<object>(pools.map((p) => p.model));
  const undeclared = new Set(volumes.filter((v) => !listed.has(v.model.pool)).map((v) => v.model.pool)).size;
  return {
    accounts: accounts.length,
    pools: pools.length,
    volumes: volumes.length,
    quotaGiB: sum(volumes.map((v) => v.quotaGiB)),
    unknownQuota: unknown(volumes.map((v) => v.quotaGiB)),
    throughputMiBps: sum(volumes.map((v) => v.throughputMiBps)),
    unknownThroughput: unknown(volumes.map((v) => v.throughputMiBps)),
    monthlyUsd: sum(pools.map((p) => p.monthlyUsd)),
    unknownMonthlyUsd: unknown(pools.map((p) => p.monthlyUsd)) + undeclared,
  };
}

// ---------------------------------------------------------------------------------------------
// Names and reasons

/** The name, else the address or symbol in the code, else the manifest path (`accounts[0].pools[1]`). */
function nameOf(
  name: { value: string } | undefined,
  resource: IacResource | undefined,
  path: readonly (string | number)[],
): { name: string; nameKnown: boolean } {
  if (name && name.value !== '') return { name: name.value, nameKnown: true };
  return { name: resource?.address ?? resource?.symbol ?? manifestPath(path), nameKnown: false };
}

function instanceOf(resource: IacResource | undefined): { instance?: string } {
  return resource ? { instance: resource.address ?? resource.symbol } : {};
}

function manifestPath(path: readonly (string | number)[]): string {
  const text = path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');
  return text === '' ? '?' : text;
}

/** A parent named by reference: its name, else its symbol; null when the code names none. */
function refLabel(ref: { symbol?: string; name?: IacValue<string> } | undefined): string | null {
  return ref?.name?.value ?? ref?.symbol ?? null;
}

/** `quota: <why>`: the reader's reason, else the expression as written; `absent` when the value is not written at all. */
function reason(label: string, value: IacValue<unknown> | undefined, absent: string): string {
  if (!value) return `${label}: ${absent}`;
  if (value.value === undefined) return `${label}: ${value.unknown ?? `\`${value.raw}\` cannot be evaluated here`}`;
  return `${label}: \`${value.raw}\` is not a valid value`;
}

function serviceLevelReason(value: IacValue<string> | undefined, source: EstateSource): string {
  if (value && value.value !== undefined) return `service level: \`${value.raw}\` is not a service level`;
  return reason('service level', value, source === 'manifest' ? 'the pool has none' : 'not given');
}

function repeatedReason(resource: IacResource | undefined): string[] {
  return [
    ...(resource?.repeated
      ? ['instances: `count`, `for_each` or a loop repeats it and anf-lint cannot tell how many times']
      : []),
    // A condition anf-lint could not evaluate: listed (a miss is worse), and said so.
    ...(resource?.deployedIf ? [`deployed: ${resource.deployedIf}`] : []),
  ];
}

function volumeUnknowns(
  source: EstateSource,
  pool: ManifestPool,
  poolResource: IacPool | undefined,
  declared: boolean,
  poolLabel: string | null,
  volume: ManifestVolume,
  resource: IacVolume | undefined,
  vf: VolumeFigures | undefined,
): string[] {
  const unknown: string[] = [];
  if (!volume.name) unknown.push(reason('name', resource?.name, 'not given'));
  if (!pool.serviceLevel) {
    unknown.push(serviceLevelReason(poolResource?.serviceLevel ?? resource?.serviceLevel, source));
  }
  if (!volume.quota) unknown.push(reason('quota', resource?.quota, 'not given'));
  const qos = poolQos(pool);
  if (!vf?.throughput) {
    if (qos === 'manual' && resource?.throughputMiBps && resource.throughputMiBps.value === undefined)
      unknown.push(reason('throughput', resource.throughputMiBps, 'not given'));
    else
      unknown.push(
        `throughput: follows the ${[!pool.serviceLevel ? 'service level' : '', !volume.quota && qos === 'auto' ? 'quota' : ''].filter(Boolean).join(' and ') || 'pool'}, unknown`,
      );
    unknown.push('IOPS: follow the throughput, unknown');
  }
  if (vf?.monthlyCostUsd === undefined) {
    const missing = [
      !pool.serviceLevel ? 'service level' : '',
      !volume.quota ? 'quota' : '',
      pool.serviceLevel && !pool.size ? "pool's size" : '',
    ].filter(Boolean);
    const where = !declared
      ? ` (pool ${poolLabel !== null ? `\`${poolLabel}\`` : 'of the volume'} is not declared in the files read)`
      : '';
    unknown.push(
      `monthly cost: follows the ${missing.join(' and ') || 'pool'}, unknown${pool.serviceLevel && !pool.size ? where : ''}`,
    );
  }
  unknown.push(...repeatedReason(resource));
  return unknown;
}
