import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../workspace/parsedFile';
import type { MountEntry } from './model';
import { decodeOctalEscapes, isNfsType, isTemplated, looksLikeNfsSource, literalParts, splitNfsSource, splitOptions } from './optionText';

export const MALFORMED_CODE = 'ANF200';

/** fstab(5): spec, file, vfstype, mntops, freq, passno. The last two may be left out. */
const FSTAB_FIELDS = 6;
const FSTAB_REQUIRED_FIELDS = 4;

interface Field {
  readonly text: string;
  readonly span: Span;
}

/** Splits a line into whitespace-separated fields with offsets (linear). */
export function fieldsOf(text: string, base: number): Field[] {
  const fields: Field[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= text.length) break;
    const start = i;
    // `{{ var }}` and `${ var }` hold spaces but are one field.
    let depth = 0;
    while (i < text.length && (depth > 0 || (text[i] !== ' ' && text[i] !== '\t'))) {
      if (text[i] === '{' && (text[i + 1] === '{' || text[i - 1] === '$')) depth++;
      else if (text[i] === '}' && depth > 0 && text[i + 1] !== '}') depth--;
      i++;
    }
    fields.push({ text: text.slice(start, i), span: { start: base + start, end: base + i } });
  }
  return fields;
}

/**
 * Parses one fstab line (no line break) written at `base`. Returns undefined for blank and comment
 * lines. Used for fstab files and for fstab lines that scripts write (`echo ... >> /etc/fstab`).
 */
export function parseFstabLine(text: string, base: number, uri: string, problems: ParseProblem[], host: MountEntry['host'] = 'fstab'): MountEntry | undefined {
  const trimmed = text.trimStart();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  const fields = fieldsOf(text, base);
  const first = fields[0]!;
  const last = fields[fields.length - 1]!;
  const span = { start: first.span.start, end: last.span.end };
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
  const templated = [spec, file, type, opts].some((f) => f !== undefined && isTemplated(f.text));
  const options = opts ? splitOptions(opts.text, opts.span.start) : [];
  const nfs = isNfsType(fsType) || (fsType === undefined && looksLikeNfsSource(source));
  return {
    uri,
    origin: 'fstab',
    host,
    source,
    sourceSpan: spec!.span,
    ...(parts && (nfs || looksLikeNfsSource(source)) ? literalParts(parts) : {}),
    ...(file ? { mountPoint: file.text, mountPointSpan: file.span, mountPointDecoded: decodeOctalEscapes(file.text) } : {}),
    ...(type ? { fsType: type.text, fsTypeSpan: type.span } : {}),
    options,
    ...(opts ? { optionsSpan: opts.span } : {}),
    isNfs: nfs,
    span,
    ...(templated || options.some((o) => o.templated) ? { templated: true } : {}),
    ...(dump ? { dump: dump.text, dumpSpan: dump.span } : {}),
    ...(pass ? { fsckPass: pass.text, fsckPassSpan: pass.span } : {}),
  };
}

/** Every mount of an fstab file. Never throws. */
export function parseFstab(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  const mounts: MountEntry[] = [];
  for (let line = 0; line < source.lineCount; line++) {
    const entry = parseFstabLine(source.lineText(line), source.lineStart(line), uri, problems);
    if (entry) mounts.push(entry);
  }
  return mounts;
}
