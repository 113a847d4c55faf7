import { WORKLOAD_KINDS, WORKLOADS, type WorkloadKind } from '../facts';
import { manifestSchema } from '../manifest/model';
import { describeOption, MOUNT_OPTIONS, type OptionSpec } from '../mounts/catalog';
import {
  recommendedMountOptions,
  recommendMount,
  renderMount,
  type MountStyle,
  type MountVolume,
} from '../recommend/mountLine';
import { CATALOG_KEYS, describeKey, type CatalogKey } from '../sysctl/catalog';
import type { CoreCompletion } from './completionItem';
import { type FileKind, kindsReading } from '../fileKind';
import type { ParsedFile } from '../workspace/parsedFile';
import { fieldDoc, fieldsOf, isBlock, keyItem, metaOf, schemaAtPath, valuesOf } from './schemaInfo';
import { jsonManifestCompletions } from './completionJson';
import { BLOCK_SNIPPETS, SKELETON } from './manifestSnippets';
import { yamlContextAt } from './yamlPath';
import { perftestCompletions } from './perftest';

export type { CoreCompletion } from './completionItem';

const MOUNT_LINE_KINDS = kindsReading('mountLines');

/**
 * What the workspace knows that completion can use: the manifest volumes (for "mount line for
 * <volume>" items) and the workload to assume for a volume that names none.
 */
export interface CompletionEstate {
  readonly volumes: readonly MountVolume[];
  readonly fallbackWorkload?: WorkloadKind;
}

/** Completions at `offset`: mount options and values, sysctl keys and values, manifest keys and values, snippets. */
export function computeCompletions(file: ParsedFile, offset: number, estate?: CompletionEstate): CoreCompletion[] {
  const text = file.source.text;
  const line = file.source.positionAt(offset).line;
  const lineStart = file.source.lineStart(line);
  const prefix = text.slice(lineStart, offset);

  if (file.kind === 'manifest-yaml') return manifestCompletions(text, offset, prefix);
  if (file.kind === 'manifest-json') return jsonManifestCompletions(text, offset);
  if (file.kind === 'fio' || file.kind === 'vdbench') return perftestCompletions(file, offset);
  if (file.kind === 'sysctl' || file.kind === 'tuned' || file.kind === 'modprobe')
    return kernelCompletions(file.kind, prefix, offset);
  const results: CoreCompletion[] = [];
  if (MOUNT_LINE_KINDS.has(file.kind))
    results.push(...mountCompletions(file.kind, prefix, offset, file.source.lineText(line)));
  if (
    estate &&
    VOLUME_LINE_KINDS.has(file.kind) &&
    /^\s*[\w-]*$/.test(prefix) &&
    file.source.lineText(line).trim() === prefix.trim()
  ) {
    results.push(...volumeMountLines(file.kind, prefix, offset, estate));
  }
  if (file.kind === 'shell' || file.kind === 'markdown' || file.kind === 'cloud-init') {
    const sysctlW = /sysctl\s+(?:-w\s+)?([\w./-]*)$/.exec(prefix);
    if (sysctlW) results.push(...keyCompletions(sysctlW[1] ?? '', offset, 'sysctl'));
  }
  return results;
}

// ---- mounts ------------------------------------------------------------------------------

/** The option list being typed at the end of `prefix`, per host format. */
function optionsTyped(kind: FileKind, prefix: string): string | undefined {
  const patterns: RegExp[] = [];
  if (kind === 'fstab') patterns.push(/^\s*[^#\s]\S*\s+\S+\s+nfs4?\s+(\S*)$/);
  if (kind === 'systemd-mount') patterns.push(/^\s*Options\s*=\s*(\S*)$/);
  if (kind === 'autofs') patterns.push(/\s-(?:fstype=nfs4?,)?(\S*)$/, /^\s*-(\S*)$/);
  if (kind === 'ansible' || kind === 'cloud-init')
    patterns.push(
      /\bopts:\s*["']?([^\s"']*)$/,
      /^\s*-\s*\[[^\]]*,\s*["']?(?:[^,"']*)["']?,\s*["']?nfs4?["']?,\s*["']?([^\s"']*)$/,
    );
  if (kind === 'shell' || kind === 'markdown' || kind === 'cloud-init')
    patterns.push(/\bmount\b.*\s-o\s*(\S*)$/, /\bmount\b.*\s--options[=\s](\S*)$/);
  for (const pattern of patterns) {
    const match = pattern.exec(prefix);
    if (match) return match[1] ?? '';
  }
  return undefined;
}

function optionValues(spec: OptionSpec): string[] {
  if (spec.values) return [...spec.values];
  const values = new Set<string>();
  for (const workload of WORKLOAD_KINDS) {
    for (const version of ['3', '4.1'] as const) {
      for (const option of recommendedMountOptions(workload, version).options) {
        const [name, value] = option.split('=');
        if (value !== undefined && (name === spec.name || spec.aliases?.includes(name!))) values.add(value);
      }
    }
  }
  if (spec.default && /^\d+$/.test(spec.default)) values.add(spec.default);
  return [...values];
}

function mountCompletions(kind: FileKind, prefix: string, offset: number, wholeLine: string): CoreCompletion[] {
  const typed = optionsTyped(kind, prefix);
  if (typed === undefined) return wholeLine.trim() === '' ? mountSnippets(kind, offset) : [];
  const word = typed.slice(typed.lastIndexOf(',') + 1);
  const eq = word.indexOf('=');
  if (eq >= 0) {
    const name = word.slice(0, eq);
    const spec = MOUNT_OPTIONS.find((o) => o.name === name || o.aliases?.includes(name));
    if (!spec) return [];
    const partial = word.slice(eq + 1);
    const replace = { start: offset - partial.length, end: offset };
    return optionValues(spec).map((value) => ({
      label: value,
      kind: 'value' as const,
      detail: `${spec.name}=${value}`,
      documentation: describeOption(spec.name),
      insertText: value,
      replace,
    }));
  }
  const replace = { start: offset - word.length, end: offset };
  const scopes =
    kind === 'systemd-mount'
      ? ['nfs', 'generic', 'systemd']
      : kind === 'autofs'
        ? ['nfs', 'generic', 'autofs']
        : ['nfs', 'generic'];
  return MOUNT_OPTIONS.filter((o) => scopes.includes(o.scope)).map((spec) => {
    const takesValue = spec.kind !== 'flag';
    return {
      label: spec.name,
      kind: 'option' as const,
      detail: spec.summary.split('. ')[0],
      documentation: describeOption(spec.name),
      insertText: takesValue ? `${spec.name}=` : spec.name,
      replace,
      sortText: `${spec.ignoredSince ? 'z' : spec.scope === 'nfs' ? 'a' : 'b'}${spec.name}`,
    };
  });
}

/** Where "mount line for <volume>" items are offered, and in which host format. */
const VOLUME_LINE_KINDS: ReadonlyMap<FileKind, MountStyle | 'autofs'> = new Map<FileKind, MountStyle | 'autofs'>([
  ['fstab', 'fstab'],
  ['shell', 'command'],
  ['systemd-mount', 'systemd'],
  ['autofs', 'autofs'],
]);

/**
 * "mount line for <volume>": one item per manifest volume of the workspace, with its real mount
 * target and export path and the recommendation `anf-lint mount` prints (recommend/mountLine.ts).
 * Offered at the start of a line (the word typed so far filters them).
 */
function volumeMountLines(kind: FileKind, prefix: string, offset: number, estate: CompletionEstate): CoreCompletion[] {
  const style = VOLUME_LINE_KINDS.get(kind);
  if (!style) return [];
  let start = prefix.length;
  while (start > 0 && /[\w-]/.test(prefix[start - 1]!)) start--;
  const typed = prefix.slice(start);
  const replace = { start: offset - typed.length, end: offset };
  const seen = new Set<string>();
  return estate.volumes.flatMap((volume) => {
    const label = volume.account && volume.pool ? `${volume.account}/${volume.pool}/${volume.name}` : volume.name;
    if (seen.has(label)) return [];
    seen.add(label);
    const recommendation = recommendMount(volume, estate.fallbackWorkload);
    // autofs (indirect map): the key is the mount point's last component.
    const text =
      style === 'autofs'
        ? `${recommendation.mountPoint.split('/').filter(Boolean).pop() ?? volume.name}  -fstype=nfs,${recommendation.options.join(',')}  ${recommendation.source}`
        : renderMount(recommendation, style, label);
    const workloadFrom = volume.workload
      ? `its workload ${volume.workload}`
      : estate.fallbackWorkload
        ? `the default workload ${estate.fallbackWorkload} (set \`workload:\` on the volume to change it)`
        : 'general purpose (the volume names no workload: set `workload:` on it)';
    return [
      {
        label: `mount line for ${volume.name}`,
        kind: 'snippet' as const,
        detail: `${recommendation.source} on ${recommendation.mountPoint} (${label})`,
        documentation: [
          `The recommended mount for manifest volume **${label}**, for ${workloadFrom}; the same as \`anf-lint mount ${volume.name}\`.`,
          '',
          '```',
          text,
          '```',
          ...recommendation.notes.map((n) => `- ${n}`),
        ].join('\n'),
        insertText: text,
        filterText: `mount line for ${volume.name}`,
        replace,
        sortText: `0${volume.name}`,
      },
    ];
  });
}

/** Whole mount lines for each workload, from the same recommendation the CLI prints. */
function mountSnippets(kind: FileKind, offset: number): CoreCompletion[] {
  if (kind !== 'fstab' && kind !== 'shell' && kind !== 'systemd-mount' && kind !== 'markdown') return [];
  const replace = { start: offset, end: offset };
  return WORKLOAD_KINDS.map((workload: WorkloadKind) => {
    const version = WORKLOADS[workload].nfsVersion.preferred === '4.1' ? '4.1' : '3';
    const { options } = recommendedMountOptions(workload, version);
    const opts = options.join(',');
    let insertText: string;
    if (kind === 'systemd-mount') {
      insertText = `[Unit]\nDescription=Azure NetApp Files volume \${2:volume} (${WORKLOADS[workload].title})\nAfter=network-online.target\nWants=network-online.target\n\n[Mount]\nWhat=\${1:10.0.0.4}:/\${2:volume}\nWhere=\${3:/mnt/volume}\nType=nfs\nOptions=${opts},_netdev\n\n[Install]\nWantedBy=remote-fs.target\n`;
    } else if (kind === 'fstab') {
      insertText = `\${1:10.0.0.4}:/\${2:volume} \${3:/mnt/volume} nfs ${opts},_netdev 0 0`;
    } else {
      insertText = `mount -t nfs -o ${opts} \${1:10.0.0.4}:/\${2:volume} \${3:/mnt/volume}`;
    }
    return {
      label: `anf-mount-${workload}`,
      kind: 'snippet' as const,
      detail: `ANF ${kind === 'systemd-mount' ? 'mount unit' : kind === 'fstab' ? 'fstab line' : 'mount command'}: ${WORKLOADS[workload].title} (NFSv${version})`,
      documentation: `Options ANF recommends for ${WORKLOADS[workload].title}:\n\n\`${opts}\``,
      insertText,
      snippet: true,
      replace,
    };
  });
}

// ---- kernel settings ---------------------------------------------------------------------

function keyCompletions(typed: string, offset: number, style: 'sysctl' | 'module'): CoreCompletion[] {
  const replace = { start: offset - typed.length, end: offset };
  const keys = CATALOG_KEYS.filter((k) => (style === 'module' ? k.via !== 'sysctl' : k.via !== 'module'));
  return keys.map((entry: CatalogKey) => {
    const label = style === 'module' ? entry.key.replace('.', ' ') : entry.key;
    return {
      label,
      kind: 'setting' as const,
      detail: entry.title,
      documentation: describeKey(entry.key),
      insertText: label.includes('*') ? label.replace('*', '${1:eth0}') : label,
      ...(label.includes('*') ? { snippet: true } : {}),
      replace,
    };
  });
}

function keyValues(entry: CatalogKey, partial: string, offset: number): CoreCompletion[] {
  const replace = { start: offset - partial.length, end: offset };
  const values = new Map<string, string>();
  for (const r of entry.recommended ?? [])
    if (!values.has(r.value)) values.set(r.value, `Recommended: ${r.context}${r.note ? `. ${r.note}` : ''}`);
  if (entry.defaultValue !== undefined && !values.has(entry.defaultValue))
    values.set(entry.defaultValue, 'Kernel default');
  if (entry.shape.kind === 'choice')
    for (const v of entry.shape.values) if (!values.has(String(v))) values.set(String(v), '');
  if (entry.shape.kind === 'boolean') for (const v of ['0', '1']) if (!values.has(v)) values.set(v, '');
  return [...values].map(([value, detail], index) => ({
    label: value,
    kind: 'value' as const,
    ...(detail ? { detail } : {}),
    documentation: describeKey(entry.key),
    insertText: value,
    replace,
    sortText: String(index).padStart(3, '0'),
  }));
}

function kernelCompletions(kind: FileKind, prefix: string, offset: number): CoreCompletion[] {
  if (kind === 'modprobe') {
    // Each earlier `key=value` starts with a key free of `=`: with `\S+=` a run like `a=b=c=...` could split many ways and backtrack exponentially.
    const moduleParam = /^\s*options\s+(\w+)\s+(?:[^\s=]+=\S*\s+)*(\w*)$/.exec(prefix);
    if (moduleParam) {
      const module = moduleParam[1]!;
      const typed = moduleParam[2] ?? '';
      const replace = { start: offset - typed.length, end: offset };
      return CATALOG_KEYS.filter((k) => k.via !== 'sysctl' && k.key.startsWith(`${module}.`)).map((k) => {
        const param = k.key.slice(module.length + 1);
        return {
          label: param,
          kind: 'setting' as const,
          detail: k.title,
          documentation: describeKey(k.key),
          insertText: `${param}=`,
          replace,
        };
      });
    }
    const valueOf = /^\s*options\s+(\w+)\s+(?:[^\s=]+=\S*\s+)*(\w+)=(\S*)$/.exec(prefix);
    if (valueOf) {
      const entry = CATALOG_KEYS.find((k) => k.key === `${valueOf[1]}.${valueOf[2]}`);
      return entry ? keyValues(entry, valueOf[3] ?? '', offset) : [];
    }
    return [];
  }
  const value = /^\s*-?([\w./*-]+)\s*=\s*(\S*)$/.exec(prefix);
  if (value) {
    const key = value[1]!.replace(/\//g, '.');
    const entry = CATALOG_KEYS.find((k) => k.key === key);
    return entry ? keyValues(entry, value[2] ?? '', offset) : [];
  }
  const key = /^\s*-?([\w./-]*)$/.exec(prefix);
  if (key) return keyCompletions(key[1] ?? '', offset, 'sysctl');
  return [];
}

// ---- manifests ---------------------------------------------------------------------------

function manifestCompletions(text: string, offset: number, prefix: string): CoreCompletion[] {
  if (text.trim() === '')
    return [
      {
        label: 'anf-manifest',
        kind: 'snippet',
        detail: 'Sizing manifest skeleton',
        documentation: 'An account, a pool and a volume with a requirement.',
        insertText: SKELETON,
        snippet: true,
        replace: { start: offset, end: offset },
      },
    ];
  const context = yamlContextAt(text, offset);
  if (!context) return [];
  if (context.valueKey !== undefined) {
    const schema = schemaAtPath(manifestSchema, [...context.path, context.valueKey]);
    if (!schema) return [];
    const replace = { start: offset - context.typed.length, end: offset };
    const values = valuesOf(schema);
    const examples =
      values.length === 0
        ? (metaOf(schema).examples ?? []).filter((e) => typeof e === 'string' || typeof e === 'number').map(String)
        : [];
    return [...values, ...examples].map((value) => ({
      label: value,
      kind: 'value' as const,
      documentation: fieldDoc(schema),
      insertText: value,
      replace,
    }));
  }
  const schema = schemaAtPath(manifestSchema, context.path);
  if (!schema) return [];
  const replace = { start: offset - context.typed.length, end: offset };
  const keys: CoreCompletion[] = fieldsOf(schema)
    .filter(([key]) => !context.siblings.includes(key) && key !== '$schema')
    .map(([key, field]) => {
      const block = isBlock(field);
      const insertText = block === 'array' ? `${key}:\n  - ` : block === 'object' ? `${key}:\n  ` : `${key}: `;
      return { ...keyItem(key, field), insertText, replace };
    });
  const listKey =
    context.path.length >= 2 && typeof context.path[context.path.length - 1] === 'number'
      ? context.path[context.path.length - 2]
      : undefined;
  const snippet = typeof listKey === 'string' ? BLOCK_SNIPPETS[listKey] : undefined;
  if (snippet && context.siblings.length === 0 && /^\s*-\s*\w*$/.test(prefix)) {
    return [
      {
        label: snippet.label,
        kind: 'snippet',
        detail: snippet.detail,
        documentation: snippet.detail,
        insertText: snippet.body,
        snippet: true,
        replace,
      },
      ...keys,
    ];
  }
  return keys;
}
