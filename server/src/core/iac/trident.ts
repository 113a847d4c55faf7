import { isMap, isScalar, isSeq, type Node, type Scalar, type YAMLMap } from 'yaml';
import type { SourceText, Span } from '../text/sourceText';
import { TRIDENT_ANF } from '../facts';
import { GiB } from '../units/units';
import { parseYaml } from '../mounts/yamlHosts';
import { annotationFor, requirementsFor } from './common';
import { workloadFromName, type IacEstate, type IacPool, type IacValue, type IacVolume } from './estate';

/**
 * Trident on AKS: an `azure-netapp-files` backend (a `tridentctl` backend file in JSON or YAML,
 * or a `TridentBackendConfig` resource), the StorageClasses that select it and the
 * PersistentVolumeClaims of those classes. Each claim is a volume Trident creates in a capacity
 * pool of the backend's (or the virtual pool's) service level; a claim smaller than Trident's
 * minimum gets the minimum. The backend's `nfsMountOptions` are read as mount options by the
 * mount readers (options-only mounts); here they give the volumes' NFS version.
 *
 * Only what one file holds is linked: a claim whose StorageClass is not in the file (or is not
 * Trident's, for azure-netapp-files) is not read, so a claim of any other storage never becomes
 * an ANF volume.
 */

const DRIVER = 'azure-netapp-files';
const PROVISIONER = 'csi.trident.netapp.io';

export function mayHoldTrident(text: string): boolean {
  return text.includes(DRIVER);
}

export interface VirtualPool {
  readonly symbol: string;
  readonly backend: string;
  readonly name: string;
  readonly labels: ReadonlyMap<string, string>;
  readonly serviceLevel?: IacValue<string>;
  readonly nfsvers?: IacValue<string>;
  readonly exportRule?: IacValue<string>;
  readonly span: Span;
  readonly headSpan: Span;
}

export interface StorageClass {
  readonly name: string;
  readonly selector?: ReadonlyMap<string, string>;
  readonly storagePools?: readonly { backend: string; pool: string }[];
  readonly anf: boolean;
}

/** What one file declares that claims of other files may use: its azure-netapp-files pools and Trident StorageClasses. */
export interface TridentParts {
  readonly pools: readonly VirtualPool[];
  readonly classes: readonly StorageClass[];
}

/**
 * What the workspace holds beside this file (workspace/tridentLinks.ts): the StorageClass of a
 * name (the one nearest the claim's folder) and the pools it may select, each with
 * where it is written (for the origin of the level a claim takes from it).
 */
export interface TridentElsewhere {
  readonly storageClass: (name: string) => StorageClass | undefined;
  /** The pools a class of another file (or, for a class of this file, this file) may select: the nearest files' ones. */
  readonly poolsFor: (sc: StorageClass | undefined) => readonly VirtualPool[];
  readonly where: (pool: VirtualPool) => string;
}

/** The pools and classes a file declares (for claims of other files). */
export function tridentParts(source: SourceText): TridentParts {
  const parts = collect(source);
  return { pools: parts.vpools, classes: [...parts.classes.values()] };
}

function collect(source: SourceText): {
  vpools: VirtualPool[];
  classes: Map<string, StorageClass>;
  claims: YAMLMap[];
} {
  const text = source.text;
  const docs = parseYaml(source);
  const vpools: VirtualPool[] = [];
  const classes = new Map<string, StorageClass>();
  const claims: YAMLMap[] = [];
  for (const doc of docs) {
    const root = doc.contents;
    if (!isMap(root)) continue;
    const kind = scalar(root, 'kind');
    if (kind === 'TridentBackendConfig') {
      const spec = root.get('spec', true);
      if (isMap(spec) && scalar(spec, 'storageDriverName') === DRIVER)
        vpools.push(...backendPools(text, spec, scalar(root.get('metadata', true), 'name') ?? 'backend', root));
    } else if (kind === 'StorageClass') {
      const sc = storageClass(root);
      if (sc) classes.set(sc.name, sc);
    } else if (kind === 'PersistentVolumeClaim') claims.push(root);
    else if (kind === undefined && scalar(root, 'storageDriverName') === DRIVER)
      vpools.push(...backendPools(text, root, scalar(root, 'backendName') ?? 'backend', root));
  }
  return { vpools, classes, claims };
}

/**
 * The file's Trident estate. With `elsewhere`, a claim whose StorageClass is not in the file takes
 * the workspace's class of that name and the pools it selects among all the workspace's.
 */
export function readTrident(source: SourceText, elsewhere?: TridentElsewhere): IacEstate | undefined {
  const text = source.text;
  const { vpools, classes, claims } = collect(source);
  if (vpools.length === 0 && ![...classes.values()].some((c) => c.anf) && !elsewhere) return undefined;
  const pools: IacPool[] = vpools.map((p) => ({
    kind: 'pool',
    symbol: p.symbol,
    span: p.span,
    headSpan: p.headSpan,
    repeated: false,
    address: `Trident backend \`${p.backend}\`${p.name !== p.backend ? `, virtual pool \`${p.name}\`` : ''}`,
    name: { value: p.symbol, span: p.headSpan, keySpan: p.headSpan, raw: p.symbol },
    ...(p.serviceLevel ? { serviceLevel: p.serviceLevel } : {}),
  }));
  const volumes: IacVolume[] = [];
  for (const claim of claims) {
    const spec = claim.get('spec', true);
    if (!isMap(spec)) continue;
    const className = scalar(spec, 'storageClassName');
    const own = className !== undefined ? classes.get(className) : undefined;
    // A class of another file: only when this file has none of that name (its own wins, as kubectl applies it here).
    const other = !own && className !== undefined ? elsewhere?.storageClass(className) : undefined;
    const sc = own ?? other;
    if (!sc || !sc.anf) continue;
    const pool = poolOf(sc, other || vpools.length === 0 ? [...vpools, ...(elsewhere?.poolsFor(other) ?? [])] : vpools);
    const poolHere = pool !== undefined && vpools.includes(pool);
    const span = rangeOf(claim);
    const nameNode = (claim.get('metadata', true) as YAMLMap | undefined)?.get?.('name', true) as Scalar | undefined;
    const nameSpan = nameNode ? rangeOf(nameNode) : span;
    const name = isScalar(nameNode) ? String(nameNode.value) : undefined;
    const requests = (spec.get('resources', true) as YAMLMap | undefined)?.get?.('requests', true);
    const storage = isMap(requests) ? (requests.get('storage', true) as Node | undefined) : undefined;
    const quota = storage && isScalar(storage) ? claimSize(text, storage) : undefined;
    const annotation = annotationFor(source, span);
    const byName = workloadFromName(name, undefined);
    const requirements = requirementsFor(source, span);
    const classNode = spec.get('storageClassName', true) as Scalar | undefined;
    const classSpan = classNode ? rangeOf(classNode) : span;
    // Without a pool, the level is unknown: say why instead of leaving it out.
    const level: IacValue<string> | undefined = pool
      ? poolHere || !pool.serviceLevel
        ? pool.serviceLevel
        : {
            ...(pool.serviceLevel.value !== undefined ? { value: pool.serviceLevel.value } : {}),
            ...(pool.serviceLevel.unknown !== undefined ? { unknown: pool.serviceLevel.unknown } : {}),
            // Written in another file: anchored on the claim's class, never editable from here.
            span: classSpan,
            keySpan: classSpan,
            raw: className!,
            origin: `the \`serviceLevel\` of ${poolLabel(pool)} in ${elsewhere!.where(pool)}, which StorageClass \`${className}\` selects`,
          }
      : {
          span: classSpan,
          keySpan: classSpan,
          raw: className!,
          unknown: `its StorageClass \`${className}\` selects no azure-netapp-files backend pool written in ${elsewhere ? 'the repository' : 'this file'} (the backend, or its virtual pools, decides the service level)`,
        };
    const protocols =
      pool?.nfsvers && poolHere
        ? { ...pool.nfsvers, value: pool.nfsvers.value?.startsWith('4') ? ['NFSv4.1'] : ['NFSv3'] }
        : undefined;
    volumes.push({
      kind: 'volume',
      symbol: `pvc/${name ?? `@${source.positionAt(span.start).line + 1}`}`,
      span,
      headSpan: nameSpan,
      repeated: false,
      address: `PersistentVolumeClaim${name ? ` \`${name}\`` : ''}, line ${source.positionAt(span.start).line + 1}`,
      ...(name !== undefined ? { name: { value: name, span: nameSpan, keySpan: nameSpan, raw: name } } : {}),
      // A pool of another file too: claims of different pools are different (manifest) pools.
      ...(pool ? { pool: { symbol: pool.symbol } } : {}),
      ...(level ? { serviceLevel: level } : {}),
      ...(quota ? { quota } : {}),
      ...(protocols ? { protocols } : {}),
      exportRules:
        pool?.exportRule && poolHere ? [{ span: pool.exportRule.span, allowedClients: pool.exportRule }] : [],
      mountTargets: [],
      ...(annotation
        ? { workload: annotation }
        : byName && name
          ? { workload: { kind: byName, span: nameSpan, from: `its name \`${name}\`` } }
          : {}),
      ...(requirements ? { requirements } : {}),
    });
  }
  if (pools.length === 0 && volumes.length === 0 && ![...classes.values()].some((c) => c.anf)) return undefined;
  return { language: 'trident', accounts: [], pools, volumes, slips: [] };
}

function poolLabel(p: VirtualPool): string {
  return `Trident backend \`${p.backend}\`${p.name !== p.backend ? `, virtual pool \`${p.name}\`` : ''}`;
}

/** The backend, and each virtual pool of its `storage:` list with what it sets over the backend's values. */
function backendPools(text: string, config: YAMLMap, backend: string, root: YAMLMap): VirtualPool[] {
  const level = value(text, config, 'serviceLevel');
  const defaults = config.get('defaults', true);
  const nfsvers = nfsVersion(text, config);
  const exportRule = isMap(defaults) ? value(text, defaults, 'exportRule') : undefined;
  const head = keyRange(config, 'storageDriverName') ?? rangeOf(root);
  const own: VirtualPool = {
    symbol: backend,
    backend,
    name: backend,
    labels: labelsOf(config),
    ...opt('serviceLevel', level),
    ...opt('nfsvers', nfsvers),
    ...opt('exportRule', exportRule),
    span: rangeOf(root),
    headSpan: head,
  };
  const storage = config.get('storage', true);
  if (!isSeq(storage) || storage.items.length === 0) return [own];
  return storage.items.flatMap((item, index) => {
    if (!isMap(item)) return [];
    const labels = labelsOf(item);
    const vdefaults = item.get('defaults', true);
    const name = labels.get('name') ?? labels.get('performance') ?? `${backend}[${index}]`;
    const span = rangeOf(item);
    return [
      {
        symbol: `${backend}/${name}`,
        backend,
        name,
        labels: new Map([...own.labels, ...labels]),
        ...opt('serviceLevel', value(text, item, 'serviceLevel') ?? level),
        ...opt('nfsvers', nfsVersion(text, item) ?? nfsvers),
        ...opt('exportRule', (isMap(vdefaults) ? value(text, vdefaults, 'exportRule') : undefined) ?? exportRule),
        span,
        headSpan: span,
      },
    ];
  });
}

/** `nfsvers=4.1` (or `vers=`) in `nfsMountOptions`: the NFS version Trident mounts, and so the protocol it creates volumes with. */
function nfsVersion(text: string, map: YAMLMap): IacValue<string> | undefined {
  const options = value(text, map, 'nfsMountOptions');
  const m = options?.value ? /(?:^|,)\s*(?:nfsvers|vers)=(\d(?:\.\d)?)/.exec(options.value) : null;
  return options && m ? { ...options, value: m[1]! } : undefined;
}

function storageClass(root: YAMLMap): StorageClass | undefined {
  const name = scalar(root.get('metadata', true), 'name');
  if (name === undefined) return undefined;
  const provisioner = scalar(root, 'provisioner');
  if (provisioner !== PROVISIONER && provisioner !== 'netapp.io/trident') return { name, anf: false };
  const params = root.get('parameters', true);
  const backendType = isMap(params) ? scalar(params, 'backendType') : undefined;
  const selectorText = isMap(params) ? scalar(params, 'selector') : undefined;
  const poolsText = isMap(params) ? scalar(params, 'storagePools') : undefined;
  const selector = selectorText
    ? new Map(
        selectorText
          .split(';')
          .map((kv) => kv.split('=').map((x) => x.trim()) as [string, string])
          .filter(([k, v]) => k && v !== undefined),
      )
    : undefined;
  const storagePools = poolsText
    ? poolsText.split(';').flatMap((entry) => {
        const [backend, list] = entry.split(':');
        return backend && list ? list.split(',').map((pool) => ({ backend: backend.trim(), pool: pool.trim() })) : [];
      })
    : undefined;
  // A Trident class that names another backend type is not ANF's; one that names none may select ANF pools by label.
  const anf = backendType === undefined ? selector !== undefined || storagePools !== undefined : backendType === DRIVER;
  return { name, anf, ...(selector ? { selector } : {}), ...(storagePools ? { storagePools } : {}) };
}

/** The one pool a class selects, when it is one: by `storagePools`, by label selector, or the only backend. */
function poolOf(sc: StorageClass, pools: readonly VirtualPool[]): VirtualPool | undefined {
  let candidates: readonly VirtualPool[] = pools;
  if (sc.storagePools)
    candidates = candidates.filter((p) =>
      sc.storagePools!.some(
        (s) =>
          s.backend === p.backend &&
          new RegExp(`^${s.pool.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(p.name),
      ),
    );
  if (sc.selector) candidates = candidates.filter((p) => [...sc.selector!].every(([k, v]) => p.labels.get(k) === v));
  const levels = new Set(candidates.map((p) => p.serviceLevel?.value));
  if (candidates.length === 1) return candidates[0];
  // Several pools of one level: the volume's level is known, its pool is the first.
  return candidates.length > 1 && levels.size === 1 && !levels.has(undefined) ? candidates[0] : undefined;
}

function labelsOf(map: YAMLMap): Map<string, string> {
  const labels = map.get('labels', true);
  const out = new Map<string, string>();
  if (isMap(labels))
    for (const pair of labels.items)
      if (isScalar(pair.key) && isScalar(pair.value)) out.set(String(pair.key.value), String(pair.value.value));
  return out;
}

/** A Kubernetes quantity: `100Gi`, `1Ti`, `500G`, `1.5Ti`, `53687091200`. */
export function quantityBytes(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?\s*$/.exec(text);
  if (!m) return undefined;
  const binary: Record<string, number> = {
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
    Pi: 1024 ** 5,
    Ei: 1024 ** 6,
  };
  const decimal: Record<string, number> = {
    k: 1000,
    M: 1000 ** 2,
    G: 1000 ** 3,
    T: 1000 ** 4,
    P: 1000 ** 5,
    E: 1000 ** 6,
  };
  const unit = m[2];
  return Math.round(Number(m[1]) * (unit === undefined ? 1 : (binary[unit] ?? decimal[unit]!)));
}

/** The claim's size as Trident creates it: the request, or Trident's minimum when the request is smaller. */
function claimSize(text: string, node: Scalar): (IacValue<number> & { unit: 'B' }) | undefined {
  const span = rangeOf(node);
  const raw = text.slice(span.start, span.end);
  const requested = quantityBytes(String(node.value));
  if (requested === undefined)
    return { span, keySpan: span, raw, unit: 'B', unknown: `\`${raw}\` is not a Kubernetes quantity anf-lint reads` };
  const min = TRIDENT_ANF.minVolumeGiB.value * GiB;
  if (requested >= min) return { value: requested, span, keySpan: span, raw, unit: 'B' };
  return {
    value: min,
    span,
    keySpan: span,
    raw,
    unit: 'B',
    origin: `Trident creates at least ${TRIDENT_ANF.minVolumeGiB.value} GiB: the claim asks for ${raw}`,
  };
}

function value(text: string, map: YAMLMap, key: string): IacValue<string> | undefined {
  const node = map.get(key, true) as Node | undefined;
  if (!node || !isScalar(node)) return undefined;
  const span = rangeOf(node);
  const keySpan = keyRange(map, key) ?? span;
  const raw = text.slice(span.start, span.end);
  const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
  return {
    value: String(node.value),
    span,
    keySpan,
    raw,
    ...(node.type === 'PLAIN' || quoted
      ? { editSpan: quoted ? { start: span.start + 1, end: span.end - 1 } : span }
      : {}),
  };
}

function scalar(map: unknown, key: string): string | undefined {
  if (!isMap(map)) return undefined;
  const v = map.get(key, true);
  return isScalar(v) && v.value !== null ? String(v.value) : undefined;
}

function keyRange(map: YAMLMap, key: string): Span | undefined {
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key);
  return pair && isScalar(pair.key) ? rangeOf(pair.key) : undefined;
}

function rangeOf(node: { range?: [number, number, number] | null }): Span {
  const r = node.range;
  return r ? { start: r[0], end: r[1] } : { start: 0, end: 0 };
}

function opt<K extends string, V>(key: K, v: V | undefined): { [P in K]?: V } {
  return (v === undefined ? {} : { [key]: v }) as { [P in K]?: V };
}
