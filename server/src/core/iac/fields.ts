import { VOLUME_RESOURCE } from '../facts';
import type { Span } from '../text/sourceText';
import { formatNumber, GiB } from '../units/units';
import type {
  IacExportRule,
  IacResource,
  IacSize,
  IacSlip,
  IacValue,
  IacVolume,
  IacPool,
  IacRef,
  SizeUnit,
} from './estate';
import {
  FROM_WORKLOAD_TAG,
  workloadFromName,
  workloadFromVolumeSpec,
  workloadKindOf,
  type IacRequirements,
  type IacWorkload,
} from './estate';
import { MiB, type Rate, type Size } from '../units/units';
import { subnetLinkOf } from './subnetLinks';
import type { Mutable } from '../mutable';

/**
 * A reader-neutral view of a resource's properties: Terraform block bodies, Bicep objects and
 * JSON objects all answer `field(key)` with the evaluated value and where it is written, so the
 * mapping from ARM property names (Bicep, ARM, az output, azapi bodies) is written once.
 */
export interface Field {
  /** The evaluated value; undefined when the expression cannot be evaluated. */
  readonly value: unknown;
  readonly span: Span;
  readonly keySpan: Span;
  readonly raw: string;
  /** The literal's text without quotes, when the value is written literally right here. */
  readonly editSpan?: Span;
  readonly object?: Obj;
  readonly items?: readonly Field[];
  /** The resource a reference names (`azurerm_netapp_pool.p`, a Bicep symbol). */
  readonly symbol?: string;
  /** Literal `1000` factors of a product (`100 * 1000 * 1000 * 1000`). */
  readonly decimalFactors?: readonly Span[];
  /** Where the variables and locals it uses got their values (Terraform). */
  readonly origin?: string;
  /** The variables it uses, also through locals (Terraform). */
  readonly vars?: readonly string[];
  /** Why `value` is undefined, when the evaluation knows (Terraform, ARM, Bicep). */
  readonly unknown?: string;
}

export interface Obj {
  readonly span: Span;
  /** Case-insensitive, as ARM treats property names. */
  field(key: string): Field | undefined;
  /** Nested blocks (Terraform); an array of objects elsewhere. */
  blocks(key: string): readonly Obj[];
  /** The keys as written (object constructors: a Terraform map's keys, a Bicep object's properties). */
  keys?(): readonly string[];
  /**
   * The object a key holds, and the elements of the array it holds, as `field(key)` gives them,
   * for a reader that can give them without evaluating the key's whole value: the Bicep reader,
   * whose `field` evaluates a resource's `properties` whole, then each of its fields again (issue
   * 29). Read through `objectAt` and `elementsAt`, which ask `field` where a reader has neither.
   */
  object?(key: string): Obj | undefined;
  elements?(key: string): readonly Element[] | undefined;
}

/** An element of an array of objects: where it is written and, when it is an object, its fields. */
export interface Element {
  readonly span: Span;
  readonly object?: Obj;
}

/** The object `key` holds (`field(key).object`). */
export function objectAt(o: Obj | undefined, key: string): Obj | undefined {
  return o?.object ? o.object(key) : o?.field(key)?.object;
}

/** The elements of the array `key` holds (`field(key).items`), none when it holds no array. */
export function elementsAt(o: Obj | undefined, key: string): readonly Element[] {
  return (o?.elements ? o.elements(key) : o?.field(key)?.items) ?? [];
}

export function str(f: Field | undefined): IacValue<string> | undefined {
  if (!f) return undefined;
  return value(f, typeof f.value === 'string' ? f.value : typeof f.value === 'number' ? String(f.value) : undefined);
}

export function num(f: Field | undefined): IacValue<number> | undefined {
  if (!f) return undefined;
  const n =
    typeof f.value === 'number'
      ? f.value
      : typeof f.value === 'string' && /^\d+$/.test(f.value)
        ? Number(f.value)
        : undefined;
  return value(f, n);
}

export function bool(f: Field | undefined): IacValue<boolean> | undefined {
  if (!f) return undefined;
  return value(
    f,
    typeof f.value === 'boolean' ? f.value : f.value === 'true' ? true : f.value === 'false' ? false : undefined,
  );
}

export function strList(f: Field | undefined): IacValue<readonly string[]> | undefined {
  if (!f) return undefined;
  if (typeof f.value === 'string') return value(f, [f.value]);
  const list =
    Array.isArray(f.value) && f.value.every((x) => typeof x === 'string') ? (f.value as string[]) : undefined;
  return value(f, list);
}

export function size(f: Field | undefined, unit: SizeUnit): IacSize | undefined {
  const n = num(f);
  return n ? { ...n, unit } : undefined;
}

function value<T>(f: Field, v: T | undefined): IacValue<T> {
  // A value of the wrong type (a quota written as an object) is unknown too, and says so.
  const shown = f.raw.length > 40 ? `${f.raw.slice(0, 40)}...` : f.raw;
  const unknown =
    v !== undefined
      ? undefined
      : (f.unknown ??
        (f.value !== undefined ? `\`${shown}\` is not a value of the type this property takes` : undefined));
  // Built by assignment, in this key order (the JSON report's): spreading a literal per optional
  // key was most of a 10 MiB file's time in this function (issue 32).
  const out: Mutable<IacValue<T>> = {} as IacValue<T>;
  if (v !== undefined) out.value = v;
  out.span = f.span;
  out.keySpan = f.keySpan;
  out.raw = f.raw;
  if (f.editSpan) out.editSpan = f.editSpan;
  if (f.origin) out.origin = f.origin;
  if (f.vars) out.vars = f.vars;
  if (unknown) out.unknown = unknown;
  return out;
}

export function ref(f: Field | undefined): IacRef | undefined {
  if (!f) return undefined;
  return { ...(f.symbol ? { symbol: f.symbol } : {}), name: str(f)! };
}

/** The last segment of a resource name written `account/pool/volume` (ARM nested names). */
export function lastSegment(v: IacValue<string> | undefined): IacValue<string> | undefined {
  if (!v || v.value === undefined || !v.value.includes('/')) return v;
  return { ...v, value: v.value.slice(v.value.lastIndexOf('/') + 1) };
}

export function segment(v: IacValue<string> | undefined, index: number): IacValue<string> | undefined {
  if (!v || v.value === undefined) return undefined;
  const parts = v.value.split('/');
  return parts.length > index ? { ...v, value: parts[index]! } : undefined;
}

/**
 * A byte count written with decimal multipliers (`100 * 1000 * 1000 * 1000`, or `100000000000`):
 * a GB where the API counts GiB. Found only when the value is a whole number of GB and not of GiB.
 */
export function decimalSlip(f: Field | undefined, what: string): IacSlip | undefined {
  if (!f || typeof f.value !== 'number') return undefined;
  const gb = VOLUME_RESOURCE.decimalGiB.value;
  if (f.value === 0 || f.value % gb !== 0 || f.value % GiB === 0) return undefined;
  const amount = f.value / gb;
  const meant = amount * GiB;
  const factors = f.decimalFactors ?? [];
  const message = `${what} is ${formatNumber(f.value)} bytes: ${formatNumber(amount)} GB (decimal, ${formatNumber(f.value / GiB, 2)} GiB), where the API counts binary units. ${formatNumber(amount)} GiB is ${meant} bytes${factors.length > 0 ? `: multiply by ${VOLUME_RESOURCE.binaryStep.value}, not ${VOLUME_RESOURCE.decimalStep.value}` : ''}.`;
  if (factors.length > 0)
    return {
      span: f.span,
      message,
      edits: factors.map((span) => ({ span, newText: String(VOLUME_RESOURCE.binaryStep.value) })),
    };
  if (f.editSpan) return { span: f.span, message, edits: [{ span: f.editSpan, newText: String(meant) }] };
  return { span: f.span, message, edits: [] };
}

// ---------------------------------------------------------------------------------------------
// ARM property names (Bicep, ARM templates, az output, azapi bodies)

/** What a reader knows of a resource before its type's fields: IacResource's, and those below. */
export interface Meta extends IacResource {
  readonly account?: IacRef;
  readonly pool?: IacRef;
  /** A workload annotation found on or above the resource. */
  readonly annotation?: IacWorkload;
  /** `# anf: throughput=... capacity=...` on or above the resource. */
  readonly required?: IacRequirements;
  readonly tags?: Field;
  /** A volume of an application volume group: the workload its volume spec name gives. */
  readonly spec?: IacWorkload;
  /** A volume of an application volume group: the group's symbol. */
  readonly volumeGroup?: string;
}

/** IacResource.deployedIf's text for a condition (as written) whose value is unknown. */
export function deployedOnlyIf(condition: string, reason: string | undefined): string {
  const shown = condition.length > 60 ? `${condition.slice(0, 57)}...` : condition; // not a fact: message length
  return `deployed only if \`${shown}\`: its value is unknown${reason ? `: ${reason}` : ''}`;
}

export function armPool(meta: Meta, props: Obj | undefined): IacPool {
  return {
    kind: 'pool',
    ...common(meta),
    ...(meta.account ? { account: meta.account } : {}),
    ...opt('serviceLevel', str(props?.field('serviceLevel'))),
    ...opt('size', size(props?.field('size'), 'B')),
    ...opt('qos', str(props?.field('qosType'))),
    ...opt('customThroughputMiBps', num(props?.field('customThroughputMibps'))),
    ...opt('coolAccess', bool(props?.field('coolAccess'))),
  };
}

/** One rule of an ARM/Bicep `exportPolicy.rules` list (also an AVM module's volume entry: knownModules.ts). */
export function armExportRule(span: Span, o: Obj): IacExportRule {
  return {
    span,
    ...opt('allowedClients', str(o.field('allowedClients'))),
    ...exportRuleAccess(o, {
      rootAccess: 'hasRootAccess',
      kerberos: (flavor) => [`kerberos${flavor}ReadWrite`, `kerberos${flavor}ReadOnly`],
    }),
  };
}

/**
 * An export rule's protocols, root access and Kerberos flavour, from an ARM/Bicep rule or an AVM
 * module's entry (knownModules.ts), which spell the root-access and Kerberos keys each its own way.
 */
export function exportRuleAccess(
  o: Obj,
  keys: { readonly rootAccess: string; readonly kerberos: (flavor: string) => readonly string[] },
) {
  return {
    ...opt('nfsv3', bool(o.field('nfsv3'))),
    ...opt('nfsv41', bool(o.field('nfsv41'))),
    ...opt('cifs', bool(o.field('cifs'))),
    ...opt('rootAccess', bool(o.field(keys.rootAccess))),
    ...opt(
      'kerberos',
      kerberosFlavor((flavor) => keys.kerberos(flavor).map((key) => o.field(key))),
    ),
  };
}

export function armVolume(
  meta: Meta,
  props: Obj | undefined,
  extra: { zones?: Field; mountTargets?: readonly string[] } = {},
): IacVolume {
  const rules = elementsAt(objectAt(props, 'exportPolicy'), 'rules');
  const exportRules: IacExportRule[] = rules.flatMap((r) => (r.object ? [armExportRule(r.span, r.object)] : []));
  const creationToken = str(props?.field('creationToken'));
  const subnet = subnetLinkOf(props?.field('subnetId'));
  return {
    kind: 'volume',
    ...common(meta),
    ...(subnet ? { subnet } : {}),
    ...(meta.account ? { account: meta.account } : {}),
    ...(meta.pool ? { pool: meta.pool } : {}),
    ...opt('serviceLevel', str(props?.field('serviceLevel'))),
    ...opt('quota', size(props?.field('usageThreshold'), 'B')),
    ...opt('protocols', strList(props?.field('protocolTypes'))),
    ...opt('throughputMiBps', num(props?.field('throughputMibps'))),
    ...opt('largeVolume', bool(props?.field('isLargeVolume'))),
    ...opt('networkFeatures', str(props?.field('networkFeatures'))),
    ...opt('zones', strList(extra.zones)),
    ...opt('kerberos', bool(props?.field('kerberosEnabled'))),
    ...opt('creationToken', creationToken),
    exportRules,
    ...opt('coolAccess', bool(props?.field('coolAccess'))),
    mountTargets: extra.mountTargets ?? [],
    ...workloadOpt(meta, creationToken),
    ...requirementsOpt(meta),
    ...(meta.volumeGroup ? { volumeGroup: meta.volumeGroup } : {}),
  };
}

/**
 * The workload a volume of an application volume group gets from its volume spec name
 * (`volume_spec_name` in Terraform, `volumeSpecName` in ARM), said so in messages.
 */
export function specWorkload(
  applicationType: string | undefined,
  spec: Field | undefined,
  key: string,
): IacWorkload | undefined {
  const name = typeof spec?.value === 'string' ? spec.value : undefined;
  const kind = workloadFromVolumeSpec(applicationType, name);
  return spec && kind ? { kind, span: spec.span, from: `its volume group's \`${key}\` '${name}'` } : undefined;
}

/** `Microsoft.NetApp/netAppAccounts/volumeGroups`: the volumes of `properties.volumes[]`, each read as a volume. */
export function armGroupVolumes(
  meta: Meta,
  props: Obj | undefined,
  poolOf: (f: Field | undefined) => IacRef | undefined,
  annotationOf: (span: Span) => IacWorkload | undefined,
): IacVolume[] {
  const appType = objectAt(props, 'groupMetaData')?.field('applicationType')?.value;
  const applicationType = typeof appType === 'string' ? appType : undefined;
  return elementsAt(props, 'volumes').flatMap((item, index) => {
    const v = item.object;
    if (!v) return [];
    // `az netappfiles volume-group show` flattens each volume's properties onto it.
    const vprops = objectAt(v, 'properties') ?? v;
    const name = lastSegment(str(v.field('name')));
    const tags = v.field('tags');
    const annotation = annotationOf(item.span);
    const spec = specWorkload(applicationType, vprops?.field('volumeSpecName'), 'volumeSpecName');
    const pool = poolOf(vprops?.field('capacityPoolResourceId'));
    const m: Meta = {
      symbol: `${meta.symbol}/volumes[${index}]`,
      span: item.span,
      headSpan: name?.span ?? item.span,
      repeated: meta.repeated,
      ...(name ? { name } : {}),
      ...(meta.apiVersion ? { apiVersion: meta.apiVersion } : {}),
      ...(meta.account ? { account: meta.account } : {}),
      ...(pool ? { pool } : {}),
      ...(annotation ? { annotation } : {}),
      ...(tags ? { tags } : {}),
      ...(spec ? { spec } : {}),
      volumeGroup: meta.symbol,
    };
    return [armVolume(m, vprops)];
  });
}

/**
 * A volume group volume's `capacityPoolResourceId`: the pool resource it names (Bicep `pool.id`),
 * else the last segment of a resource ID written out (`.../capacityPools/<name>`); else nothing.
 */
export function poolFromId(f: Field | undefined): IacRef | undefined {
  if (!f) return undefined;
  if (f.symbol) return { symbol: f.symbol };
  const id = str(f);
  const m = typeof id?.value === 'string' ? /\/capacityPools\/([^/]+)\/?$/i.exec(id.value) : null;
  return id && m ? { name: { ...id, value: m[1]! } } : undefined;
}

/** Where a resource or subnet is declared, and its name: what every estate item says of itself. */
interface DeclaredPart {
  symbol: string;
  address?: string;
  span: Span;
  headSpan: Span;
  repeated: boolean;
  name?: IacValue<string>;
}

// declared and common build by assignment, in the key order the JSON report shows (a 10 MiB file has tens of thousands of resources).
export function declared(meta: Meta): DeclaredPart {
  const out = { symbol: meta.symbol } as DeclaredPart;
  if (meta.address) out.address = meta.address;
  out.span = meta.span;
  out.headSpan = meta.headSpan;
  out.repeated = meta.repeated;
  if (meta.name) out.name = meta.name;
  return out;
}

export function common(meta: Meta): DeclaredPart & { apiVersion?: IacValue<string>; deployedIf?: string } {
  const out: DeclaredPart & { apiVersion?: IacValue<string>; deployedIf?: string } = declared(meta);
  if (meta.apiVersion) out.apiVersion = meta.apiVersion;
  if (meta.deployedIf) out.deployedIf = meta.deployedIf;
  return out;
}

export function opt<K extends string, V>(key: K, v: V | undefined): { [P in K]?: V } {
  return (v === undefined ? {} : { [key]: v }) as { [P in K]?: V };
}

/**
 * Workload: the annotation, else a `workload` tag, else (a volume of an application volume group)
 * its volume spec name, else a strong naming convention.
 */
export function workloadOpt(meta: Meta, path: IacValue<string> | undefined): { workload?: IacWorkload } {
  if (meta.annotation) return { workload: meta.annotation };
  const tag = meta.tags?.object?.field('workload');
  const tagged = workloadKindOf(typeof tag?.value === 'string' ? tag.value : undefined);
  if (tag && tagged) return { workload: { kind: tagged, span: tag.span, from: FROM_WORKLOAD_TAG } };
  if (meta.spec) return { workload: meta.spec };
  const byName = workloadFromName(meta.name?.value, undefined);
  if (byName && meta.name)
    return { workload: { kind: byName, span: meta.name.span, from: `its name \`${meta.name.value}\`` } };
  const byPath = workloadFromName(undefined, path?.value);
  if (byPath && path) return { workload: { kind: byPath, span: path.span, from: `its export path \`${path.value}\`` } };
  return {};
}

/** Tags that state what a volume must deliver, in MiB/s and GiB (numbers, or strings of digits). */
export const REQUIRED_THROUGHPUT_TAG = 'required_throughput_mibps';
export const REQUIRED_CAPACITY_TAG = 'required_capacity_gib';

/** What a volume must deliver: its `anf:` annotation first, else its `required_*` tags. */
export function requirementsOpt(meta: Meta): { requirements?: IacRequirements } {
  const tags = meta.tags?.object;
  const tagged = <T>(key: string, valueOf: (n: number) => T) => {
    const f = tags?.field(key);
    const n = num(f);
    return f && n?.value !== undefined && n.value > 0
      ? { value: valueOf(n.value), span: f.span, raw: f.raw, from: `its \`${key}\` tag` }
      : undefined;
  };
  const throughput =
    meta.required?.throughput ??
    tagged(
      REQUIRED_THROUGHPUT_TAG,
      (mibps): Rate => ({ bytesPerSecond: mibps * MiB, amount: mibps, unit: 'MiB/s', system: 'binary', bits: false }),
    );
  const capacity =
    meta.required?.capacity ??
    tagged(REQUIRED_CAPACITY_TAG, (gib): Size => ({ bytes: gib * GiB, amount: gib, unit: 'GiB', system: 'binary' }));
  if (!throughput && !capacity) return {};
  return {
    requirements: {
      span: (throughput ?? capacity)!.span,
      ...(throughput ? { throughput } : {}),
      ...(capacity ? { capacity } : {}),
    },
  };
}

/** The strongest Kerberos flavour an export rule enables; `fields(flavor)` reads its flags ('5', '5i', '5p'). */
export function kerberosFlavor(
  fields: (flavor: string) => (Field | undefined)[],
): 'krb5' | 'krb5i' | 'krb5p' | undefined {
  for (const flavor of ['5p', '5i', '5'] as const) {
    if (fields(flavor).some((f) => bool(f)?.value === true)) return `krb${flavor}`;
  }
  return undefined;
}
