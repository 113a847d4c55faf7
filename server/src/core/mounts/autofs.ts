import { isTemplateDirectiveLine } from '../text/templateLines';
import type { SourceText } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { fieldsOf, MALFORMED_CODE } from './fstab';
import type { MountEntry, MountOption } from './model';
import { isTemplated, looksLikeNfsSource, literalParts, splitNfsSource, splitOptions } from './optionText';

/**
 * An autofs map (`auto.*`, autofs(5)): `key [-options] location`. Options start with `-`;
 * `fstype=` picks the file system (NFS when left out). Master-map lines (`/mnt /etc/auto.eda`),
 * includes (`+auto.master`) and multi-mount entries with several locations are read as far as they
 * are NFS locations. Lines continued with `\` are joined. Never throws.
 */
export function parseAutofsMap(
  source: SourceText,
  uri: string,
  problems: ParseProblem[],
  lines?: { readonly from: number; readonly to: number },
): MountEntry[] {
  const mounts: MountEntry[] = [];
  const isMaster = /(?:^|\/)auto\.master(?:\.d)?$/.test(uri) || uri.endsWith('.autofs');
  // `lines` ([from, to)): the entries starting on those lines, for re-reading an edit (workspace/lineReuse.ts).
  const last = lines ? Math.min(lines.to, source.lineCount) : source.lineCount;
  for (let line = lines?.from ?? 0; line < last; line++) {
    const firstLine = line;
    const start = source.lineStart(line);
    // A continued entry: join the physical lines, replacing each `\`+break with spaces (same length).
    let end = source.lineEnd(line);
    while (/\\\s*$/.test(source.lineText(line)) && line + 1 < source.lineCount) {
      line++;
      end = source.lineEnd(line);
    }
    const raw = source.text.slice(start, end);
    const text = firstLine === line ? raw : raw.replace(/\\(\r?\n)/g, (_, brk: string) => ' '.repeat(1 + brk.length));
    const trimmed = text.trimStart();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('+') || isTemplateDirectiveLine(trimmed))
      continue;
    const fields = fieldsOf(text, start);
    if (isMaster) continue; // master maps list maps, not mounts
    if (fields.length < 2) {
      problems.push({
        code: MALFORMED_CODE,
        span: fields[0]!.span,
        message: 'This autofs map entry has a key but no location: write `key [-options] server:/export`.',
      });
      continue;
    }
    const key = fields[0]!;
    let index = 1;
    const options: MountOption[] = [];
    let optionsSpan;
    while (index < fields.length && fields[index]!.text.startsWith('-')) {
      const field = fields[index]!;
      for (const option of splitOptions(field.text.slice(1), field.span.start + 1)) options.push(option);
      optionsSpan = { start: field.span.start + 1, end: field.span.end };
      index++;
    }
    // Multi-mount entries (`/tools srv:/tools /lib srv:/lib`): one mount per location.
    const rest = fields.slice(index);
    const locations = rest.filter((f) => f.text.includes(':') || isTemplated(f.text));
    if (locations.length === 0 && rest.length > 0) locations.push(rest[rest.length - 1]!);
    if (locations.length === 0) {
      problems.push({
        code: MALFORMED_CODE,
        span: { start: key.span.start, end: fields[fields.length - 1]!.span.end },
        message: 'This autofs map entry has options but no location (`server:/export`).',
      });
      continue;
    }
    const fsTypeOption = options.find((o) => o.name === 'fstype');
    const fsType = fsTypeOption?.value;
    for (const location of locations) {
      // Replicated servers (`srv1,srv2:/path`, `srv1(1):/path`) keep the first one.
      const parts = splitNfsSource(location.text);
      const nfs =
        (fsType === undefined || fsType === 'nfs' || fsType === 'nfs4') &&
        (looksLikeNfsSource(location.text) || isTemplated(location.text));
      const templated = isTemplated(text);
      mounts.push({
        uri,
        origin: 'autofs',
        host: 'autofs',
        source: location.text,
        sourceSpan: location.span,
        ...(parts ? literalParts({ server: parts.server.split(/[,(\s]/)[0]!, exportPath: parts.exportPath }) : {}),
        mountPoint: key.text,
        mountPointSpan: key.span,
        mountPointDecoded: key.text,
        ...(fsTypeOption?.valueSpan && fsType ? { fsType, fsTypeSpan: fsTypeOption.valueSpan } : {}),
        options,
        ...(optionsSpan
          ? { optionsSpan }
          : {
              optionsSpan: { start: location.span.start, end: location.span.start },
              optionsInsertion: { before: '-', after: ' ' },
            }),
        isNfs: nfs,
        span: { start: key.span.start, end: fields[fields.length - 1]!.span.end },
        ...(templated ? { templated: true } : {}),
      });
    }
  }
  return mounts;
}
