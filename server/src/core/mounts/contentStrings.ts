import { isMap, isScalar, isSeq, type Scalar, type YAMLMap } from 'yaml';
import { commandBaseName, commandIndex, forEachPipeline, type ShellWord } from '../text/shell';
import type { SourceText, Span } from '../text/sourceText';
import type { MountEntry, MountOption } from './model';
import { asOptionString, insideAny, optionStringMount, readOptionText, takenSpans } from './optionStrings';
import { looksLikeNfsSource, splitNfsSource } from './optionText';
import { ansibleTask, parseYaml, scalarContent } from './yamlHosts';

type Host = NonNullable<MountEntry['host']>;

/** Keys whose value is a mount-option list by position (Kubernetes PV/StorageClass, Trident backends). */
const OPTION_LIST_KEYS = new Set(['mountOptions']);
const OPTION_STRING_KEYS = new Set(['nfsMountOptions', 'mount_options', 'mountOptions']);
const SMB_HINT = /\b(?:cifs|smb|file\.csi\.azure\.com|azurefile)\b/i;

/**
 * Option strings in every YAML value of the document (Ansible vars, `set_fact`, loop items, role
 * defaults, Helm values, Kubernetes manifests), and Kubernetes `mountOptions` lists. Strings inside
 * a mount already found (`existing`) are not read again. Never throws.
 */
export function yamlOptionStrings(
  source: SourceText,
  uri: string,
  host: Host,
  existing: readonly MountEntry[],
): MountEntry[] {
  const found: MountEntry[] = [];
  const text = source.text;
  const docs = parseYaml(source);
  if (docs.length === 0 || docs.some((doc) => doc.errors.length > 0))
    return lineOptionStrings(source, uri, host, existing);
  const visit = (node: unknown, depth: number) => {
    if (depth > 64) return; // not a fact: recursion guard against pathological nesting
    if (isSeq(node)) {
      for (const item of node.items) visit(item, depth + 1);
      return;
    }
    if (isMap(node)) {
      const whole = mountLikeMap(source, uri, host, node, existing);
      if (whole) {
        found.push(whole);
        return;
      }
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key !== undefined && OPTION_LIST_KEYS.has(key) && isSeq(pair.value)) {
          const entry = optionList(source, uri, host, pair.value.items.filter(isScalar), node, existing);
          if (entry) found.push(entry);
          continue;
        }
        if (key !== undefined && OPTION_STRING_KEYS.has(key) && isScalar(pair.value)) {
          const content = scalarContent(text, pair.value);
          const span = content && { start: content.start, end: content.end };
          if (content && span && !insideAny(existing, span) && !SMB_HINT.test(mapText(text, node))) {
            const shape = readOptionText(content.raw, content.start);
            if (asOptionString(content.raw, content.start) || shape.options.length > 0) {
              const kind = serverKindOf(node);
              found.push(optionStringMount(uri, host, shape, span, kind ? { serverKind: kind } : {}, true));
            }
          }
          continue;
        }
        // `fstype: cifs` / `type: aznfs` beside the strings: they are not NFS options.
        if (otherFileSystem(node)) continue;
        if (isScalar(pair.value)) {
          const entry = scalarOptionString(text, pair.value, uri, host, existing);
          if (entry) found.push(withSiblingMountPoint(text, entry, node));
          continue;
        }
        visit(pair.value, depth + 1);
      }
      return;
    }
    if (isScalar(node)) {
      const entry = scalarOptionString(text, node, uri, host, existing);
      if (entry) found.push(entry);
    }
  };
  for (const doc of docs) visit(doc.contents, 0);
  return found;
}

const FS_TYPE_KEYS = new Set(['fstype', 'fs_type', 'fsType', 'type', 'filesystem']);

function otherFileSystem(map: YAMLMap): boolean {
  for (const pair of map.items) {
    if (!isScalar(pair.key) || !FS_TYPE_KEYS.has(String(pair.key.value)) || !isScalar(pair.value)) continue;
    const value = String(pair.value.value);
    if (/^(?:cifs|smb3?|aznfs|ext[234]|xfs|btrfs|tmpfs|fuse\.[\w-]+|blobfuse2?|lustre|beegfs|gpfs)$/.test(value))
      return true;
  }
  return false;
}

/**
 * A map that describes a whole mount the way Ansible's mount module does (`src: server:/export`,
 * `path: /dir`, `opts:`, optional `fstype:`), in variables (`anf_mounts:` lists in group_vars) or
 * anywhere else: read as a mount with its server and mount point. Maps already read (a task's
 * arguments, a loop item) are left alone.
 */
function mountLikeMap(
  source: SourceText,
  uri: string,
  host: Host,
  map: YAMLMap,
  existing: readonly MountEntry[],
): MountEntry | undefined {
  const get = (name: string) => map.items.find((p) => isScalar(p.key) && p.key.value === name)?.value;
  const src = get('src');
  const path = get('path') ?? get('name');
  if (
    !isScalar(src) ||
    !isScalar(path) ||
    typeof src.value !== 'string' ||
    typeof path.value !== 'string' ||
    !path.value.startsWith('/')
  )
    return undefined;
  if (!looksLikeNfsSource(src.value)) return undefined;
  const fstype = get('fstype');
  const typeText = isScalar(fstype) ? String(fstype.value) : undefined;
  if (typeText !== undefined && typeText !== 'nfs' && typeText !== 'nfs4') return undefined;
  const srcSpan = src.range ? { start: src.range[0], end: src.range[1] } : undefined;
  if (
    !srcSpan ||
    existing.some((m) => m.sourceSpan && m.sourceSpan.start < srcSpan.end && m.sourceSpan.end > srcSpan.start)
  )
    return undefined;
  const entry = ansibleTask(source, uri, map, map);
  if (!entry) return undefined;
  return { ...entry, host, isNfs: true, ...(typeText === undefined ? { fsType: 'nfs' } : {}) };
}

/** Keys beside an option string that name where it is mounted (a loop item's `path: /usr/sap`). */
const MOUNT_PATH_KEYS = ['path', 'mount_point', 'mountpoint', 'mount_path', 'mountPath'];

/**
 * An option string found in a map that also says where it is mounted (an Ansible loop item
 * `{ mount: '{{ usr_sap_mountpoint }}', opts: '...', path: '/usr/sap' }` handed to an included task
 * file): the mount point joins the mount, so its naming convention (`/usr/sap`, `/hana/log`) names
 * the workload as it would in fstab.
 */
function withSiblingMountPoint(text: string, entry: MountEntry, map: YAMLMap): MountEntry {
  for (const key of MOUNT_PATH_KEYS) {
    const value = map.items.find((p) => isScalar(p.key) && p.key.value === key)?.value;
    if (!isScalar(value) || typeof value.value !== 'string' || !value.value.startsWith('/')) continue;
    const content = scalarContent(text, value);
    if (!content) continue;
    return { ...entry, mountPoint: value.value, mountPointSpan: { start: content.start, end: content.end } };
  }
  return entry;
}

function mapText(text: string, node: YAMLMap): string {
  return node.range ? text.slice(node.range[0], node.range[1]) : '';
}

function scalarOptionString(
  text: string,
  node: Scalar,
  uri: string,
  host: Host,
  existing: readonly MountEntry[],
): MountEntry | undefined {
  if (typeof node.value !== 'string') return undefined;
  if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') return undefined;
  const content = scalarContent(text, node);
  if (!content || content.raw.includes('\n')) return undefined;
  // A double-quoted scalar with escapes is not its text: offsets would be off.
  if (node.type === 'QUOTE_DOUBLE' && content.raw.includes('\\')) return undefined;
  const span = { start: content.start, end: content.end };
  if (insideAny(existing, span)) return undefined;
  const shape = asOptionString(content.raw, content.start);
  return shape ? optionStringMount(uri, host, shape, span) : undefined;
}

/** Trident's driver for Azure NetApp Files; every other driver (ONTAP, Google Cloud NetApp Volumes, FSx for ONTAP) is another server. */
const TRIDENT_ANF_DRIVER = 'azure-netapp-files';
const CSI_PROVISIONERS: Readonly<Record<string, NonNullable<MountEntry['serverKind']>['kind']>> = {
  'file.csi.azure.com': 'azure-files',
  'blob.csi.azure.com': 'azure-blob',
};

/**
 * The server kind the map around an option list names: a Trident backend's `storageDriverName`, a
 * StorageClass's `parameters.backendType` (Trident) or its CSI `provisioner`. Undefined when it
 * names none (then the mount's server decides, as everywhere).
 */
export function serverKindOf(map: YAMLMap): MountEntry['serverKind'] {
  const value = (owner: unknown, name: string): string | undefined => {
    if (!isMap(owner)) return undefined;
    const found = owner.items.find((p) => isScalar(p.key) && p.key.value === name)?.value;
    return isScalar(found) && typeof found.value === 'string' ? found.value : undefined;
  };
  const parameters = map.items.find((p) => isScalar(p.key) && p.key.value === 'parameters')?.value;
  for (const [driver, where] of [
    [value(map, 'storageDriverName'), "the Trident backend's `storageDriverName`"],
    [value(parameters, 'backendType'), "the StorageClass's Trident `backendType`"],
  ] as const) {
    if (!driver || /[{$<]/.test(driver)) continue;
    return driver === TRIDENT_ANF_DRIVER
      ? { kind: 'anf', why: `${where} is \`${driver}\`: Azure NetApp Files.` }
      : {
          kind: 'other',
          why: `${where} is \`${driver}\`: not Azure NetApp Files, so only generic NFS advice applies.`,
        };
  }
  const provisioner = value(map, 'provisioner');
  const csi = provisioner ? CSI_PROVISIONERS[provisioner] : undefined;
  if (csi)
    return {
      kind: csi,
      why: `The StorageClass's provisioner is \`${provisioner}\`: ${csi === 'azure-files' ? 'Azure Files (NFS)' : 'Azure Blob NFS'}.`,
    };
  return undefined;
}

/**
 * A Kubernetes `mountOptions` list (PersistentVolume, StorageClass): one option (or a comma list)
 * per item. With `nfs: { server, path }` beside it, the server and export are known too.
 */
function optionList(
  source: SourceText,
  uri: string,
  host: Host,
  items: readonly Scalar[],
  owner: YAMLMap,
  existing: readonly MountEntry[],
): MountEntry | undefined {
  const text = source.text;
  if (SMB_HINT.test(mapText(text, owner))) return undefined; // Azure Files SMB through the CSI driver
  const options: MountOption[] = [];
  let first: number | undefined;
  let last: number | undefined;
  for (const item of items) {
    const content = scalarContent(text, item);
    if (!content) continue;
    first ??= content.start;
    last = content.end;
    for (const option of readOptionText(content.raw, content.start).options) options.push(option);
  }
  if (first === undefined || last === undefined || options.length === 0) return undefined;
  const span = { start: first, end: last };
  if (insideAny(existing, span)) return undefined;
  // Nothing SMB in the list itself either (`dir_mode=0777` on an azurefile PV without the driver name).
  const joined = options.map((o) => text.slice(o.span.start, o.span.end)).join(',');
  if (/(?:^|,)(?:dir_mode|file_mode|credentials|serverino|mfsymlinks|cache)=?/.test(joined)) return undefined;
  const nfs = owner.items.find((p) => isScalar(p.key) && p.key.value === 'nfs')?.value;
  const get = (name: string) =>
    isMap(nfs) ? nfs.items.find((p) => isScalar(p.key) && p.key.value === name)?.value : undefined;
  const server = get('server');
  const path = get('path');
  const extra: Partial<MountEntry> = {};
  if (isScalar(server) && isScalar(path) && typeof server.value === 'string' && typeof path.value === 'string') {
    const parts = splitNfsSource(`${server.value}:${path.value}`);
    if (parts)
      Object.assign(extra, {
        source: `${server.value}:${path.value}`,
        server: parts.server,
        exportPath: parts.exportPath,
      });
  }
  const kind = serverKindOf(owner);
  if (kind) Object.assign(extra, { serverKind: kind });
  return optionStringMount(uri, host, { options, body: span }, span, extra);
}

/** `- `, `key: ` or `- key: ` in front of a value, after the indentation (all optional, so it always matches). */
const LINE_PREFIX = /^(?:-[ \t]+)?(?:["']?[\w.-]+["']?[ \t]*:(?![^ \t]))?[ \t]*/;

/**
 * The same for text that is not valid YAML (Helm templates: `{{ ... }}` lines): each line's value
 * (`key: value` or `- value`), and `mountOptions:` lists of plain items. Judges only literal text.
 */
export function lineOptionStrings(
  source: SourceText,
  uri: string,
  host: Host,
  existing: readonly MountEntry[],
  fromLine = 0,
  toLine = source.lineCount,
): MountEntry[] {
  const found: MountEntry[] = [];
  for (let line = fromLine; line < toLine; line++) {
    const lineText = source.lineText(line);
    const start = source.lineStart(line);
    const listKey = /^([ \t]*)mountOptions[ \t]*:[ \t]*$/.exec(lineText);
    if (listKey) {
      const options: MountOption[] = [];
      let next = line + 1;
      for (; next < toLine; next++) {
        const item = /^([ \t]*)-[ \t]+(.*?)[ \t]*$/.exec(source.lineText(next));
        if (!item || item[1]!.length < listKey[1]!.length) break;
        const raw = unquote(item[2]!);
        const at =
          source.lineStart(next) + item[1]!.length + (item[0]!.indexOf(item[2]!) - item[1]!.length) + raw.offset;
        if (raw.text.startsWith('{{')) continue;
        for (const option of readOptionText(raw.text, at).options) options.push(option);
      }
      if (options.length > 0 && !options.some((o) => /^(?:dir_mode|file_mode|credentials)$/.test(o.name))) {
        const span = { start: options[0]!.span.start, end: options[options.length - 1]!.span.end };
        if (!insideAny(existing, span))
          found.push({
            uri,
            origin: 'option-string',
            host,
            fsType: 'nfs',
            options,
            optionsSpan: span,
            isNfs: true,
            span,
            optionsOnly: true,
          });
      }
      line = next - 1;
      continue;
    }
    let indent = 0;
    while (lineText[indent] === ' ' || lineText[indent] === '\t') indent++;
    const prefix = LINE_PREFIX.exec(lineText.slice(indent))![0];
    const valueStart = start + indent + prefix.length;
    let value = lineText.slice(indent + prefix.length);
    const comment = value.search(/[ \t]#/);
    if (comment >= 0) value = value.slice(0, comment);
    value = value.trimEnd();
    const raw = unquote(value);
    const span = { start: valueStart + raw.offset, end: valueStart + raw.offset + raw.text.length };
    if (raw.text.length === 0 || insideAny(existing, span) || insideAny(found, span)) continue;
    const shape = asOptionString(raw.text, span.start);
    if (shape) found.push(optionStringMount(uri, host, shape, span));
  }
  return found;
}

function unquote(value: string): { text: string; offset: number } {
  const q = value[0];
  if ((q === '"' || q === "'") && value.length >= 2 && value[value.length - 1] === q)
    return { text: value.slice(1, -1), offset: 1 };
  return { text: value, offset: 0 };
}

const MOUNT_COMMANDS = new Set(['mount', 'mount.nfs', 'mount.nfs4', 'umount']);

/**
 * Option strings in shell words: `OPTS="rw,hard,vers=3"` assignments and arguments of commands
 * other than `mount` (whose options the mount extraction reads). Only words whose text stands as
 * is in the document (plain or in one pair of quotes) are read.
 */
export function shellOptionStrings(
  text: string,
  uri: string,
  host: Host,
  existing: readonly MountEntry[],
  from = 0,
  to = text.length,
): MountEntry[] {
  if (!mayHoldOptionStrings(text.slice(from, to))) return [];
  return shellOptionWords(text, uri, host, existing, from, to);
}

/** Whether a script can hold an option string at all (a cheap look before reading its words). */
export function mayHoldOptionStrings(text: string): boolean {
  return text.includes('=') && /vers=|nconnect=|hard|rsize=|wsize=|sec=|actimeo=|lookupcache=|nolock/.test(text);
}

/** `shellOptionStrings` without the look at the text (answered for the whole script: workspace/shellReuse.ts). */
export function shellOptionWords(
  text: string,
  uri: string,
  host: Host,
  existing: readonly MountEntry[],
  from: number,
  to: number,
): MountEntry[] {
  const found: MountEntry[] = [];
  const taken = takenSpans(existing);
  forEachPipeline(text, from, to, {}, (pipeline) => {
    for (const command of pipeline) {
      const k = commandIndex(command.words);
      const name = command.words[k];
      if (name && MOUNT_COMMANDS.has(commandBaseName(name.value))) continue;
      for (const word of command.words) {
        const piece = literalText(word);
        if (!piece) continue;
        const span = { start: piece.start, end: piece.start + piece.text.length };
        if (taken(span)) continue;
        const shape = asOptionString(piece.text, piece.start);
        if (shape) found.push(optionStringMount(uri, host, shape, span));
      }
    }
  });
  return found;
}

/** The word's text where it stands in the document: after `NAME=`, inside one pair of quotes. */
function literalText(word: ShellWord): { text: string; start: number } | undefined {
  let raw = word.raw;
  let start = word.span.start;
  const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(raw);
  if (assignment) {
    raw = raw.slice(assignment[0].length);
    start += assignment[0].length;
  } else if (/^--?[A-Za-z][\w-]*=/.test(raw)) {
    // `--mount-options=rw,hard`: the part after `=`.
    const eq = raw.indexOf('=') + 1;
    raw = raw.slice(eq);
    start += eq;
  }
  const q = raw[0];
  if ((q === '"' || q === "'") && raw.length >= 2 && raw[raw.length - 1] === q) {
    const inner = raw.slice(1, -1);
    if (inner.includes(q) || (q === '"' && inner.includes('\\'))) return undefined;
    return { text: inner, start: start + 1 };
  }
  if (/["'\\]/.test(raw)) return undefined;
  return { text: raw, start };
}

/** Inline code of documentation (`` `rw,hard,vers=3` ``): each span is one candidate string. */
export function inlineCodeOptionStrings(
  text: string,
  uri: string,
  host: Host,
  existing: readonly MountEntry[],
  spans: readonly Span[],
): MountEntry[] {
  const found: MountEntry[] = [];
  for (const span of spans) {
    if (insideAny(existing, span)) continue;
    const shape = asOptionString(text.slice(span.start, span.end), span.start);
    if (shape) found.push(optionStringMount(uri, host, shape, span));
  }
  return found;
}
