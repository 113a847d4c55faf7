import { distance } from 'fastest-levenshtein';
import type { Span } from '../text/sourceText';
import { findOption, KNOWN_OPTION_NAMES } from './catalog';
import type { MountEntry, MountOption } from './model';
import { isTemplated, splitOptions } from './optionText';

/**
 * Option strings found by their content, not their position: a string anywhere in YAML values,
 * shell words or documentation code that reads as an NFS option list. The heuristic (docs/mounts.md):
 *
 * - one word (no blanks outside placeholders), split at commas, every literal part shaped like an
 *   option (`name` or `name=value`, the value without `=`, `&`, `?` or blanks);
 * - every literal part is a known option, or a near miss of one (a typo that mount.nfs would reject):
 *   any other word means the string is something else (CSV, docker arguments, query strings);
 * - one unmistakable option (`vers=`, `nfsvers=`, `nconnect=`, `rsize=`...), or two known options of
 *   which one is an NFS `name=value` option (`sec=sys`; not `port=` or `user=`), or three known options of which
 *   one is a distinctive NFS flag (`hard`, `nolock`, `noac`); `hard,soft` and `tcp,udp` stay out;
 * - nothing SMB (`credentials=`, `dir_mode=`, `vers=3.0`...): Azure Files SMB options stay out.
 *
 * Placeholders (`{{ x }}`, `${x}`, `$X`, `%s`, `<placeholder>`) are unknown parts: never judged,
 * never counted. Two mistakes of writing are read through and reported: a file system type at the
 * start (`nfs nfsvers=4.1,sec=sys`, ANF240) and an extra pair of quotes (`'rw,vers=4'` inside a
 * YAML string, ANF241).
 */

/** One of these alone makes a string an option list. */
const UNMISTAKABLE = new Set([
  'vers',
  'nfsvers',
  'nconnect',
  'minorversion',
  'rsize',
  'wsize',
  'actimeo',
  'lookupcache',
]);
/** NFS flags that rarely mean anything else; `tcp`, `udp`, `ac`, `bg`, `lock` alone are too common. */
const DISTINCTIVE_FLAGS = new Set([
  'hard',
  'soft',
  'softerr',
  'noac',
  'nocto',
  'nolock',
  'noresvport',
  'resvport',
  'nordirplus',
  'sharecache',
  'nosharecache',
  'noacl',
  'nointr',
]);
/** NFS options whose names are common words of other `key=value` lists (`port=5432,user=app`): they do not count as evidence. */
const COMMON_WORDS = new Set([
  'port',
  'addr',
  'clientaddr',
  'mountaddr',
  'mountport',
  'proto',
  'retry',
  'user',
  'timeo',
  'retrans',
]);
/** Options of Azure Files SMB (mount.cifs): a string holding one is not an NFS option list. */
const SMB_OPTIONS = new Set([
  'credentials',
  'username',
  'user',
  'password',
  'pass',
  'domain',
  'dir_mode',
  'file_mode',
  'serverino',
  'noserverino',
  'mfsymlinks',
  'iocharset',
  'cache',
  'nobrl',
  'nosharesock',
  'actimeo_dir',
  'seal',
  'guest',
  'multichannel',
  'max_channels',
  'cifsacl',
  'uid',
  'gid',
  'forceuid',
  'forcegid',
  'noperm',
  'nounix',
  'vers_smb',
]);
/** NFS versions mount.nfs accepts; other `vers=` values (3.0, 3.1.1, 2.1) are SMB dialects. */
const NFS_VERSION = /^(?:2|3|4|4\.0|4\.1|4\.2)$/;
/** Placeholders of other template languages than optionText's: printf `%s`, `<placeholder>`, `@VAR@`. */
const OTHER_PLACEHOLDER = /%[sd]|<[A-Za-z_][\w-]*>|@[A-Za-z_]\w*@/;
const OPTION_SHAPE = /^[A-Za-z_][A-Za-z0-9_.-]*(?:=[^\s=&?,]*)?$/;
const FS_TYPE_PREFIX = /^(nfs4?|aznfs|cifs|smb3?)[ \t]+(?=\S)/;
const BLANKS = /[ \t\r\n]/;

export interface OptionStringShape {
  readonly options: MountOption[];
  /** The option list without the extra quotes and file system type. */
  readonly body: Span;
  readonly fsType?: { readonly text: string; readonly span: Span };
  readonly quotes?: { readonly open: Span; readonly close: Span };
}

/**
 * How an option text written at `base` reads: the options, a file system type written first and an
 * extra pair of quotes around it. No judgement on whether it is an option list.
 */
export function readOptionText(raw: string, base: number): OptionStringShape {
  let from = 0;
  let to = raw.length;
  while (from < to && BLANKS.test(raw[from]!)) from++;
  while (to > from && BLANKS.test(raw[to - 1]!)) to--;
  let quotes: OptionStringShape['quotes'];
  const q = raw[from];
  if ((q === '"' || q === "'") && to - from >= 2 && raw[to - 1] === q && !raw.slice(from + 1, to - 1).includes(q)) {
    quotes = { open: { start: base + from, end: base + from + 1 }, close: { start: base + to - 1, end: base + to } };
    from++;
    to--;
  }
  let fsType: OptionStringShape['fsType'];
  const prefix = FS_TYPE_PREFIX.exec(raw.slice(from, to));
  if (prefix) {
    fsType = { text: prefix[1]!, span: { start: base + from, end: base + from + prefix[1]!.length } };
    from += prefix[0].length;
  }
  const body = raw.slice(from, to);
  return {
    options: splitOptions(body, base + from),
    body: { start: base + from, end: base + to },
    ...(fsType ? { fsType } : {}),
    ...(quotes ? { quotes } : {}),
  };
}

function nearKnown(name: string): boolean {
  if (name.length < 4) return false; // not a fact: short words are too close to everything
  const limit = Math.max(1, Math.floor(name.length / 3)); // not a fact: the same bound as ANF202's suggestion
  for (const known of KNOWN_OPTION_NAMES)
    if (Math.abs(known.length - name.length) <= limit && distance(name, known) <= limit) return true;
  return false;
}

/** The shape of `raw` when it reads as an NFS option list (see the heuristic above); undefined otherwise. */
export function asOptionString(raw: string, base: number): OptionStringShape | undefined {
  if (raw.length < 3 || raw.length > 2000 || (!raw.includes('=') && !raw.includes(','))) return undefined; // option lists are short
  const shape = readOptionText(raw, base);
  if (shape.fsType && shape.fsType.text !== 'nfs' && shape.fsType.text !== 'nfs4') return undefined;
  const bodyText = raw.slice(shape.body.start - base, shape.body.end - base);
  if (bodyText.startsWith('-') || (BLANKS.test(bodyText) && !isTemplated(bodyText))) return undefined;
  let known = 0;
  let valued = false;
  let distinctive = false;
  let unmistakable = false;
  const options: MountOption[] = [];
  for (const option of shape.options) {
    if (option.templated) {
      options.push(option);
      continue;
    }
    const text = raw.slice(option.span.start - base, option.span.end - base);
    if (OTHER_PLACEHOLDER.test(text)) {
      options.push({ ...option, templated: true });
      continue;
    }
    options.push(option);
    if (!OPTION_SHAPE.test(text)) return undefined;
    const name = option.name;
    if (SMB_OPTIONS.has(name)) return undefined;
    if ((name === 'vers' || name === 'nfsvers') && option.value !== undefined && !NFS_VERSION.test(option.value))
      return undefined;
    const spec = findOption(name);
    if (!spec) {
      if (!nearKnown(name)) return undefined;
      continue;
    }
    known++;
    if (spec.scope === 'nfs' && option.value !== undefined && !COMMON_WORDS.has(name)) valued = true;
    if (DISTINCTIVE_FLAGS.has(name)) distinctive = true;
    if (UNMISTAKABLE.has(name) && option.value !== undefined) unmistakable = true;
  }
  // `hard,soft` or `tcp,udp` alone are words of other lists too: a flag-only list needs three options.
  if (!unmistakable && !(known >= 2 && valued) && !(known >= 3 && distinctive)) return undefined;
  return { ...shape, options };
}

/**
 * An options-only mount for an option string found at `base` in the document (`raw` is its text
 * there). `certain`: the position says it goes straight to mount (a Kubernetes `mountOptions`).
 */
export function optionStringMount(
  uri: string,
  host: NonNullable<MountEntry['host']>,
  shape: OptionStringShape,
  span: Span,
  extra: Partial<MountEntry> = {},
  certain = false,
): MountEntry {
  const templated = shape.options.some((o) => o.templated);
  return {
    uri,
    origin: 'option-string',
    host,
    fsType: shape.fsType?.text ?? 'nfs',
    options: shape.options,
    optionsSpan: shape.body,
    isNfs: true,
    span,
    optionsOnly: true,
    ...(templated ? { templated: true } : {}),
    ...(shape.fsType ? { optionsFsType: shape.fsType } : {}),
    ...(shape.quotes ? { optionsQuotes: { ...shape.quotes, certain } } : {}),
    ...extra,
  };
}

/**
 * `insideAny(mounts, span)` for many spans against the same mounts: the taken spans sorted by start with
 * the running maximum of their ends, so each question is a binary search, not a scan of every mount (a
 * shell script with a mount on every other line was quadratic).
 */
export function takenSpans(mounts: readonly MountEntry[]): (span: Span) => boolean {
  const taken: { start: number; end: number }[] = [];
  for (const mount of mounts) {
    const span = mount.optionsOnly ? mount.span : mount.optionsSpan;
    if (span) taken.push({ start: span.start, end: Math.max(span.end, span.start + 1) });
  }
  taken.sort((a, b) => a.start - b.start);
  const starts = taken.map((t) => t.start);
  const maxEnd: number[] = [];
  for (const [i, t] of taken.entries()) maxEnd.push(i === 0 ? t.end : Math.max(maxEnd[i - 1]!, t.end));
  return (span) => {
    // How many taken spans start before the span ends; one of them overlaps when its end passes the span's start.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! < span.end) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && maxEnd[lo - 1]! > span.start;
  };
}

/** Strings already read as a mount's options (or as a whole options-only mount) are not read again by content. */
export function insideAny(mounts: readonly MountEntry[], span: Span): boolean {
  for (const mount of mounts) {
    const taken = mount.optionsOnly ? mount.span : mount.optionsSpan;
    if (taken && span.start < Math.max(taken.end, taken.start + 1) && span.end > taken.start) return true;
  }
  return false;
}
