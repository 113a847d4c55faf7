import { isTemplateDirectiveLine } from '../text/templateLines';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import type { MountEntry, MountOption } from './model';
import { type LineAnchor, LineSpan } from './lineSpan';
import {
  decodeOctalEscapes,
  isNfsType,
  isTemplated,
  mayBeTemplated,
  partsLookLikeNfs,
  splitNfsSource,
  splitOptions,
} from './optionText';

export const MALFORMED_CODE = 'ANF200';

/** fstab(5): spec, file, vfstype, mntops, freq, passno. The last two may be left out. */
const FSTAB_FIELDS = 6;
const FSTAB_REQUIRED_FIELDS = 4;

interface Field {
  readonly text: string;
  readonly span: Span;
}

const SPACE = 32; // not a fact: character code of ' '
const TAB = 9; // not a fact: character code of '\t'

/**
 * Splits a line into whitespace-separated fields with offsets (linear). With `anchor` (the line's
 * start, for a line without placeholders: `mayBeTemplated` false), the spans are `LineSpan`s on it.
 */
export function fieldsOf(text: string, base: number, anchor?: LineAnchor): Field[] {
  // Without a `{` or `$(` no field can hold a placeholder with spaces: split on blanks alone (most lines).
  if (!text.includes('{') && !text.includes('$(')) return plainFieldsOf(text, base, anchor);
  const fields: Field[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= text.length) break;
    const start = i;
    // `{{ var }}`, `${ var }` and a script's `$(cmd arg)` or `$(( a + b ))` hold spaces but are one field.
    let depth = 0;
    let parens = 0;
    while (i < text.length && (depth > 0 || parens > 0 || (text[i] !== ' ' && text[i] !== '\t'))) {
      if (text[i] === '{' && (text[i + 1] === '{' || text[i - 1] === '$')) depth++;
      else if (text[i] === '}' && depth > 0 && text[i + 1] !== '}') depth--;
      else if (text[i] === '(' && (parens > 0 || text[i - 1] === '$')) parens++;
      else if (text[i] === ')' && parens > 0) parens--;
      i++;
    }
    fields.push({ text: text.slice(start, i), span: { start: base + start, end: base + i } });
  }
  return fields;
}

function plainFieldsOf(text: string, base: number, anchor: LineAnchor | undefined): Field[] {
  const fields: Field[] = [];
  const length = text.length;
  let tab = text.indexOf('\t');
  let i = 0;
  while (i < length) {
    let code = text.charCodeAt(i);
    while (code === SPACE || code === TAB) code = text.charCodeAt(++i);
    if (i >= length) break;
    const start = i;
    // The field ends at the next blank: indexOf is native, a loop over characters was not.
    if (tab >= 0 && tab < start) tab = text.indexOf('\t', start);
    const space = text.indexOf(' ', start);
    i = space < 0 ? length : space;
    if (tab >= 0 && tab < i) i = tab;
    fields.push({
      text: text.slice(start, i),
      span: anchor ? new LineSpan(anchor, start, i) : { start: base + start, end: base + i },
    });
  }
  return fields;
}

/**
 * Parses one fstab line (no line break) written at `base`. Returns undefined for blank and comment
 * lines. Used for fstab files and for fstab lines that scripts write (`echo ... >> /etc/fstab`).
 * `anchored` (an fstab file's own lines, kept from version to version by workspace/lineReuse.ts):
 * a line without placeholders or quotes gets its spans as `LineSpan`s on one anchor per line, which
 * an edit above the line moves with one write (lineSpan.ts); its spans must not be moved one by one.
 */
export function parseFstabLine(
  text: string,
  base: number,
  uri: string,
  problems: ParseProblem[],
  host: MountEntry['host'] = 'fstab',
  anchored = false,
): MountEntry | undefined {
  const trimmed = text.trimStart();
  if (trimmed === '' || trimmed.startsWith('#') || isTemplateDirectiveLine(trimmed)) return undefined;
  // Most lines hold no placeholder or quote character at all: then no field needs a closer look.
  const plain = !mayBeTemplated(text);
  const anchor = anchored && plain ? { start: base } : undefined;
  const fields = fieldsOf(text, base, anchor);
  const first = fields[0]!;
  const last = fields[fields.length - 1]!;
  const span = anchor
    ? new LineSpan(anchor, first.span.start - base, last.span.end - base)
    : { start: first.span.start, end: last.span.end };
  if (fields.length < FSTAB_REQUIRED_FIELDS) {
    const names = ['device or server:/export', 'mount point', 'file system type', 'options'];
    problems.push({
      code: MALFORMED_CODE,
      span,
      message: `This fstab line has ${fields.length} field${fields.length === 1 ? '' : 's'}; it needs at least ${FSTAB_REQUIRED_FIELDS} (${names.join(', ')}), then dump and fsck pass. Missing: ${names.slice(fields.length).join(', ')}.`,
    });
    if (fields.length < 2) return undefined;
  } else if (fields.length > FSTAB_FIELDS) {
    const extra = fields.slice(FSTAB_FIELDS);
    problems.push({
      code: MALFORMED_CODE,
      span: { start: extra[0]!.span.start, end: last.span.end },
      message: `This fstab line has ${fields.length} fields; fstab has ${FSTAB_FIELDS} (device, mount point, type, options, dump, pass). A space inside a field must be written \\040, and options are separated by commas without spaces.`,
    });
  }
  const [spec, file, type, opts, dump, pass] = fields;
  const source = spec!.text;
  const fsType = type?.text;
  const parts = splitNfsSource(source);
  // Anchored: the options' spans too, at their columns.
  const options = opts
    ? anchor
      ? splitOptions(opts.text, opts.span.start - base, plain, anchor)
      : splitOptions(opts.text, opts.span.start, plain)
    : [];
  const nfs = isNfsType(fsType) || (fsType === undefined && partsLookLikeNfs(parts));
  const nfsParts = parts && (nfs || partsLookLikeNfs(parts)) ? parts : undefined;
  // The object spreads this replaces were the largest self time of a 200-line fstab (this runs for
  // every line on every change). A complete, plain line (nearly all of them) is one literal with the
  // fields in the order the spreads gave them; other lines are built property by property. A plain
  // line's options follow from their text alone: `optionListText` lets mounts share effective options.
  if (plain && file && type && opts && dump && pass) {
    const mountPointDecoded = decodeOctalEscapes(file.text);
    return nfsParts
      ? {
          uri,
          origin: 'fstab',
          host,
          source,
          sourceSpan: spec!.span,
          server: nfsParts.server,
          exportPath: nfsParts.exportPath,
          mountPoint: file.text,
          mountPointSpan: file.span,
          mountPointDecoded,
          fsType: type.text,
          fsTypeSpan: type.span,
          options,
          optionsSpan: opts.span,
          isNfs: nfs,
          span,
          dump: dump.text,
          dumpSpan: dump.span,
          fsckPass: pass.text,
          fsckPassSpan: pass.span,
          optionListText: opts.text,
        }
      : {
          uri,
          origin: 'fstab',
          host,
          source,
          sourceSpan: spec!.span,
          mountPoint: file.text,
          mountPointSpan: file.span,
          mountPointDecoded,
          fsType: type.text,
          fsTypeSpan: type.span,
          options,
          optionsSpan: opts.span,
          isNfs: nfs,
          span,
          dump: dump.text,
          dumpSpan: dump.span,
          fsckPass: pass.text,
          fsckPassSpan: pass.span,
          optionListText: opts.text,
        };
  }
  const entry = { uri, origin: 'fstab', host, source, sourceSpan: spec!.span } as Writable<MountEntry>;
  if (nfsParts) {
    if (plain || !isTemplated(nfsParts.server)) entry.server = nfsParts.server;
    if (plain || !isTemplated(nfsParts.exportPath)) entry.exportPath = nfsParts.exportPath;
  }
  if (file) {
    entry.mountPoint = file.text;
    entry.mountPointSpan = file.span;
    entry.mountPointDecoded = decodeOctalEscapes(file.text);
  }
  if (type) {
    entry.fsType = type.text;
    entry.fsTypeSpan = type.span;
  }
  entry.options = options;
  if (opts) entry.optionsSpan = opts.span;
  // `"rw,hard"`: fstab has no quoting, so mount receives the quotes (ANF241).
  const q = opts?.text[0];
  if (
    opts &&
    (q === '"' || q === "'") &&
    opts.text.length >= 2 &&
    opts.text.endsWith(q) &&
    !opts.text.slice(1, -1).includes(q)
  ) {
    entry.optionsQuotes = {
      open: { start: opts.span.start, end: opts.span.start + 1 },
      close: { start: opts.span.end - 1, end: opts.span.end },
      certain: true,
    };
  }
  entry.isNfs = nfs;
  entry.span = span;
  if (
    !plain &&
    (isTemplated(source) ||
      (file !== undefined && isTemplated(file.text)) ||
      (type !== undefined && isTemplated(type.text)) ||
      (opts !== undefined && isTemplated(opts.text)) ||
      anyTemplated(options))
  ) {
    entry.templated = true;
  }
  if (dump) {
    entry.dump = dump.text;
    entry.dumpSpan = dump.span;
  }
  if (pass) {
    entry.fsckPass = pass.text;
    entry.fsckPassSpan = pass.span;
  }
  return entry;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

function anyTemplated(options: readonly MountOption[]): boolean {
  for (const option of options) if (option.templated) return true;
  return false;
}

/** Every mount of an fstab file. Never throws. */
export function parseFstab(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  const mounts: MountEntry[] = [];
  for (let line = 0; line < source.lineCount; line++) {
    const entry = parseFstabLine(source.lineText(line), source.lineStart(line), uri, problems, 'fstab', true);
    if (entry) mounts.push(entry);
  }
  return mounts;
}
