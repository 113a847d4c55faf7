import type { Span } from '../text/sourceText';
import { offsetAt, type ShellWord } from '../text/shell';
import type { MountEntry } from './model';
import { isNfsType, isTemplated, looksLikeNfsSource, splitNfsSource, splitOptions } from './optionText';

/** What this reads of a word (shellMounts.ts `Word`; a type of its own, so neither module imports the other). */
type Word = Pick<ShellWord, 'raw' | 'value' | 'span' | 'templated'>;
/** Where the mount was read (shellMounts.ts `ShellHost`). */
interface ShellHost {
  readonly uri: string;
  readonly host: NonNullable<MountEntry['host']>;
}

/**
 * Pacemaker `Filesystem` resources created from the command line: the resource agent mounts
 * `device` on `directory` with `fstype` and `options`, as mount(8) would.
 *
 * - `pcs [-f file] resource create NAME [ocf:heartbeat:]Filesystem device=… directory=… fstype=nfs
 *   options=… [op …] [meta …] [--group G] [--disabled]` (pcs(8): resource options are the
 *   `key=value` words up to `op`, `meta`, `clone`, `promotable` or `bundle`);
 * - `crm configure primitive NAME [ocf:heartbeat:]Filesystem [params] device=… directory=… …
 *   [meta …] [op …]` (crmsh: `params` is optional before the first attribute).
 *
 * The directory is the mount point, so the SAP and HANA path conventions name the workload as in fstab.
 */
export function filesystemResource(words: readonly Word[], host: ShellHost): MountEntry | undefined {
  const name = words[0]?.value;
  let i: number;
  if (name === 'pcs') {
    i = 1;
    while (i < words.length && words[i]!.value.startsWith('-'))
      i += PCS_OPTIONS_WITH_ARGUMENT.has(words[i]!.value) ? 2 : 1;
    if (words[i]?.value !== 'resource' || words[i + 1]?.value !== 'create') return undefined;
    i += 3; // `resource create NAME`
  } else if (name === 'crm') {
    i = 1;
    while (i < words.length && words[i]!.value.startsWith('-')) i++;
    if (words[i]?.value !== 'configure' || words[i + 1]?.value !== 'primitive') return undefined;
    i += 3; // `configure primitive NAME`
  } else {
    return undefined;
  }
  const agent = words[i]?.value;
  if (!agent || !FILESYSTEM_AGENT.test(agent)) return undefined;
  const params = new Map<string, { word: Word; at: number }>();
  for (let j = i + 1; j < words.length; j++) {
    const word = words[j]!;
    const v = word.value;
    if (v === 'params') continue;
    if (SECTION_WORDS.has(v)) break; // `op monitor interval=20s`, `meta target-role=Stopped`: not the agent's
    if (v.startsWith('-')) continue; // `--group g_hana`, `--disabled`
    const eq = v.indexOf('=');
    if (eq <= 0) continue;
    params.set(v.slice(0, eq), { word, at: eq + 1 });
  }
  const device = params.get('device');
  const directory = params.get('directory');
  if (!device || !directory) return undefined;
  const fstype = params.get('fstype');
  const options = params.get('options');
  const value = (p: { word: Word; at: number }) => p.word.value.slice(p.at);
  const span = (p: { word: Word; at: number }): Span => ({
    start: offsetOf(p.word, p.at),
    end: offsetOf(p.word, p.word.value.length - 1) + 1,
  });
  const deviceText = value(device);
  const fsTypeText = fstype ? value(fstype) : undefined;
  const parts = splitNfsSource(deviceText);
  const isNfs = isNfsType(fsTypeText) || (fsTypeText === undefined && looksLikeNfsSource(deviceText));
  const optionList = options
    ? splitOptions(value(options), 0).map((o) => ({
        ...o,
        span: spanAt(options, o.span),
        nameSpan: spanAt(options, o.nameSpan),
        ...(o.valueSpan ? { valueSpan: spanAt(options, o.valueSpan) } : {}),
      }))
    : [];
  const templated = [deviceText, value(directory), fsTypeText, options ? value(options) : undefined].some(
    (t) => t !== undefined && isTemplated(t),
  );
  const last = directory.word.span.end > (fstype?.word.span.end ?? 0) ? directory.word : fstype!.word;
  return {
    uri: host.uri,
    origin: 'mount-command',
    host: host.host,
    source: deviceText,
    sourceSpan: span(device),
    ...(parts && !isTemplated(parts.server) ? { server: parts.server } : {}),
    ...(parts && !isTemplated(parts.exportPath) ? { exportPath: parts.exportPath } : {}),
    mountPoint: value(directory),
    mountPointSpan: span(directory),
    mountPointDecoded: value(directory),
    ...(fstype && fsTypeText ? { fsType: fsTypeText, fsTypeSpan: span(fstype) } : {}),
    options: optionList,
    // No `options=` yet: a new resource option after the last of device, directory and fstype.
    ...(options
      ? { optionsSpan: span(options) }
      : {
          optionsSpan: { start: last.span.end, end: last.span.end },
          optionsInsertion: { before: ' options=', after: '' },
        }),
    isNfs,
    span: { start: words[0]!.span.start, end: words[words.length - 1]!.span.end },
    ...(templated || optionList.some((o) => o.templated) ? { templated: true } : {}),
  };
}

/** The Filesystem agent, with or without its class and provider (`ocf:heartbeat:Filesystem`). */
const FILESYSTEM_AGENT = /^(?:ocf:(?:heartbeat:)?)?Filesystem$/;
/** Words that end a resource's agent options (pcs and crmsh). */
const SECTION_WORDS = new Set(['op', 'meta', 'clone', 'promotable', 'bundle', 'utilization']);
/** pcs(8) global options that take an argument. */
const PCS_OPTIONS_WITH_ARGUMENT = new Set(['-f', '--request-timeout']);

/** Where `word.value[index]` stands in the document (an argument-list word is its own text). */
function offsetOf(word: Word, index: number): number {
  return 'runs' in word ? offsetAt(word as ShellWord, index) : word.span.start + (word.raw === word.value ? index : 0);
}

/** A span of the value after `key=` of a resource option, as document offsets. */
function spanAt(p: { word: Word; at: number }, span: Span): Span {
  const start = offsetOf(p.word, p.at + span.start);
  return span.end > span.start ? { start, end: offsetOf(p.word, p.at + span.end - 1) + 1 } : { start, end: start };
}
