import { isMap, isScalar, isSeq, type Scalar, type YAMLMap } from 'yaml';
import { SourceText, type Span } from '../text/sourceText';
import { isTemplateDirectiveLine } from '../text/templateLines';
import type { ParseProblem } from '../diagnostics';
import type { MountEntry, MountOption } from './model';
import { readOptionText } from './optionStrings';
import { isNfsType, isTemplated, literalParts, looksLikeNfsSource, splitNfsSource } from './optionText';
import { parseYaml, scalarContent } from './yamlHosts';

/**
 * Salt states (`*.sls`) that mount file systems:
 *
 * ```yaml
 * /hana/shared:
 *   mount.mounted:
 *     - device: 10.20.1.4:/hn1-shared
 *     - fstype: nfs
 *     - opts: rw,hard,vers=4.1      # or a list, one option per item
 *     - persist: True
 * ```
 *
 * `mount.mounted` (the mount point is `name`, else the state's ID; `device`, `fstype`, `opts`,
 * `dump`, `pass_num`), also written `mount: [mounted, …]`, and `mount.fstab_present` (`name` is the
 * device; `fs_file`, `fs_vfstype`, `fs_mntops`). A state file is a Jinja template rendered to
 * YAML: Jinja statement and comment lines are skipped as in other files, and `{{ … }}` values are
 * unknown parts (read from the file's own text; the YAML is parsed with them blanked out, so
 * `device: {{ anf_ip }}:/data` stays readable). Never throws.
 */
export function parseSalt(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  void problems;
  const text = source.text;
  if (!text.includes('mount')) return [];
  const mounts: MountEntry[] = [];
  for (const doc of parseYaml(new SourceText(maskJinja(text)))) {
    const root = doc.contents;
    if (!isMap(root)) continue;
    for (const state of root.items) {
      if (!isMap(state.value) || !isScalar(state.key)) continue;
      for (const call of state.value.items) {
        const fn = isScalar(call.key) ? String(call.key.value) : '';
        const args = isSeq(call.value) ? call.value.items : [];
        const first = args[0];
        const bare = isScalar(first) ? String(first.value) : undefined;
        const function_ = fn.includes('.') ? fn.slice(fn.indexOf('.') + 1) : bare;
        if (!fn.startsWith('mount') || (function_ !== 'mounted' && function_ !== 'fstab_present')) continue;
        // The state from its ID (the mount point of `mount.mounted` when `name` is not given) to its last argument.
        const entry = stateMount(
          text,
          uri,
          state.key as Scalar,
          args,
          function_ === 'fstab_present',
          spanOf(state.key as Scalar, call.value as YAMLMap),
        );
        if (entry) mounts.push(entry);
      }
    }
  }
  return mounts;
}

/** The arguments of a state call: `- key: value` items. */
function argumentsOf(items: readonly unknown[]): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const item of items) {
    if (!isMap(item)) continue;
    for (const pair of item.items) if (isScalar(pair.key)) found.set(String(pair.key.value), pair.value);
  }
  return found;
}

function stateMount(
  text: string,
  uri: string,
  id: Scalar,
  items: readonly unknown[],
  fstabPresent: boolean,
  span: Span,
): MountEntry | undefined {
  const args = argumentsOf(items);
  const names = fstabPresent
    ? { device: 'name', path: 'fs_file', type: 'fs_vfstype', opts: 'fs_mntops', dump: 'fs_freq', pass: 'fs_passno' }
    : { device: 'device', path: 'name', type: 'fstype', opts: 'opts', dump: 'dump', pass: 'pass_num' };
  const read = (node: unknown) => (isScalar(node) ? scalarContent(text, node) : undefined);
  const device = read(args.get(names.device));
  const path = read(args.get(names.path)) ?? (fstabPresent ? undefined : read(id));
  const type = read(args.get(names.type));
  if (!device) return undefined;
  // `persist: False` keeps the mount out of fstab; the default (True, "Set if the mount should be saved in the fstab") writes it.
  const persist = read(args.get('persist'))?.raw.trim().toLowerCase();
  const persisted = fstabPresent || (persist !== 'false' && persist !== 'no' && persist !== 'off');
  const optsNode = args.get(names.opts);
  const options: MountOption[] = [];
  let optionsSpan: Span | undefined;
  if (isScalar(optsNode)) {
    const content = read(optsNode)!;
    const shape = readOptionText(content.raw, content.start);
    for (const option of shape.options) options.push(option);
    optionsSpan = shape.body;
  } else if (isSeq(optsNode)) {
    // `- opts:` followed by one option per item.
    for (const item of optsNode.items) {
      const content = read(item);
      if (!content) continue;
      for (const option of readOptionText(content.raw, content.start).options) options.push(option);
    }
    if (options.length > 0) optionsSpan = { start: options[0]!.span.start, end: options[options.length - 1]!.span.end };
  }
  const parts = splitNfsSource(device.raw);
  const dump = read(args.get(names.dump));
  const pass = read(args.get(names.pass));
  const templated =
    [device.raw, path?.raw, type?.raw].some((t) => t !== undefined && isTemplated(t)) ||
    options.some((o) => o.templated);
  // No options: a new `- opts:` item after the type (or the device), at its indentation.
  const anchor = type ?? device;
  const lineStart = text.lastIndexOf('\n', anchor.start - 1) + 1;
  const indent = /^[ \t]*-?[ \t]*/.exec(text.slice(lineStart, anchor.start))![0];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return {
    uri,
    origin: 'salt',
    host: 'salt',
    source: device.raw,
    sourceSpan: { start: device.start, end: device.end },
    ...(parts ? literalParts(parts) : {}),
    ...(path
      ? { mountPoint: path.raw, mountPointSpan: { start: path.start, end: path.end }, mountPointDecoded: path.raw }
      : {}),
    ...(type ? { fsType: type.raw, fsTypeSpan: { start: type.start, end: type.end } } : {}),
    options,
    ...(optionsSpan
      ? { optionsSpan }
      : {
          optionsSpan: { start: anchor.end, end: anchor.end },
          optionsInsertion: {
            before: `${eol}${indent.replace(/[^ \t-]/g, ' ')}${fstabPresent ? 'fs_mntops' : 'opts'}: `,
            after: '',
          },
        }),
    isNfs: isNfsType(type?.raw) || (type === undefined && looksLikeNfsSource(device.raw)),
    span,
    ...(persisted ? { persistedIn: 'fstab' as const } : {}),
    ...(templated ? { templated: true } : {}),
    ...(dump ? { dump: dump.raw, dumpSpan: { start: dump.start, end: dump.end } } : {}),
    ...(pass ? { fsckPass: pass.raw, fsckPassSpan: { start: pass.start, end: pass.end } } : {}),
  };
}

function spanOf(key: Scalar, value: YAMLMap): Span {
  const start = key.range?.[0] ?? 0;
  return { start, end: value?.range?.[1] ?? key.range?.[1] ?? start };
}

/**
 * The text with Jinja blanked out, same length: statement and comment lines become blanks, and
 * each `{{ … }}` / `{% … %}` inside a line becomes underscores (a plain YAML word), so the
 * document parses and every offset stays the file's.
 */
export function maskJinja(text: string): string {
  if (!text.includes('{')) return text;
  return text
    .split('\n')
    .map((line) =>
      isTemplateDirectiveLine(line)
        ? line.replace(/[^\r]/g, ' ')
        : line.replace(/\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}/g, (m) => '_'.repeat(m.length)),
    )
    .join('\n');
}
