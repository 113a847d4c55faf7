import type { ParseProblem } from '../diagnostics';
import { FIO_DEFAULTS, FIO_ENGINES } from '../facts';
import type { Span } from '../text/sourceText';
import { formatSize } from '../units/units';
import {
  defaulted,
  known,
  unknown,
  type JobTarget,
  type JobValue,
  type OutstandingIo,
  type PerfJob,
  type PerfSetting,
  type PerfTestFile,
} from './model';
import { fioBool, fioBytes, fioPathList, fioSeconds, indentOf, linesOf, runtimeOnly } from './values';

/**
 * fio job files (HOWTO.rst, "Job file format"): an ini file whose `[name]` sections are jobs; a
 * `[global]` section sets defaults for the jobs below it (a job is only affected by a global
 * section above it, and a file may have several); `;` or `#` starts a comment line; `include
 * file` pulls in options; `${VAR}` is the environment's value when fio runs.
 */

/** The code of a value the tool itself would reject (perftest/rules/ANF505). */
export const PERFTEST_SYNTAX = 'ANF505';

interface Entry {
  readonly key: string;
  readonly value?: string;
  readonly keySpan: Span;
  readonly valueSpan: Span;
}

interface Section {
  readonly name: string;
  readonly span: Span;
  readonly entries: Entry[];
  readonly includes: { readonly file: string; readonly span: Span }[];
}

/** Other spellings fio accepts for the keys anf-lint reads. */
const ALIASES: Readonly<Record<string, string>> = {
  readwrite: 'rw',
  blocksize: 'bs',
  io_limit: 'io_size',
};

export function canonicalFioKey(key: string): string {
  const lower = key.toLowerCase();
  return ALIASES[lower] ?? lower;
}

export function readFio(text: string): { file: PerfTestFile; problems: ParseProblem[] } {
  const problems: ParseProblem[] = [];
  const sections: Section[] = [];
  const settings: PerfSetting[] = [];
  let current: Section | undefined;
  for (const line of linesOf(text)) {
    const indent = indentOf(line.text);
    const body = line.text.trim();
    const start = line.start + indent;
    if (body === '' || body.startsWith(';') || body.startsWith('#')) continue;
    if (body.startsWith('[')) {
      const close = body.indexOf(']');
      if (close < 0) {
        problems.push({
          code: PERFTEST_SYNTAX,
          span: { start, end: start + body.length },
          message: `This section header has no closing \`]\`: fio would stop reading the job file here.`,
        });
        current = undefined;
        continue;
      }
      current = {
        name: body.slice(1, close).trim(),
        span: { start, end: start + close + 1 },
        entries: [],
        includes: [],
      };
      sections.push(current);
      continue;
    }
    const include = /^include[ \t]+(\S.*)$/.exec(body);
    if (include && current) {
      current.includes.push({ file: include[1]!.trim(), span: { start, end: start + body.length } });
      continue;
    }
    if (!current) {
      problems.push({
        code: PERFTEST_SYNTAX,
        span: { start, end: start + body.length },
        message: 'An option before any `[section]`: fio refuses a job file with options outside a section.',
      });
      continue;
    }
    const equals = body.indexOf('=');
    const rawKey = (equals < 0 ? body : body.slice(0, equals)).trimEnd();
    const keySpan = { start, end: start + rawKey.length };
    let entry: Entry;
    if (equals < 0)
      entry = { key: canonicalFioKey(rawKey), keySpan, valueSpan: { start: keySpan.end, end: keySpan.end } };
    else {
      const after = body.slice(equals + 1);
      const lead = after.length - after.trimStart().length;
      const value = after.trim();
      const valueStart = start + equals + 1 + lead;
      entry = {
        key: canonicalFioKey(rawKey),
        value,
        keySpan,
        valueSpan: { start: valueStart, end: valueStart + value.length },
      };
    }
    current.entries.push(entry);
    settings.push({
      key: entry.key,
      value: entry.value ?? '',
      keySpan: entry.keySpan,
      valueSpan: entry.valueSpan,
      owner: current.name,
    });
  }

  const jobs: PerfJob[] = [];
  let globals = new Map<string, Entry>();
  let globalIncludes: readonly string[] = [];
  for (const section of sections) {
    if (section.name.toLowerCase() === 'global') {
      globals = new Map(globals);
      for (const entry of section.entries) globals.set(entry.key, entry);
      globalIncludes = [...globalIncludes, ...section.includes.map((i) => i.file)];
      continue;
    }
    const options = new Map(globals);
    for (const entry of section.entries) options.set(entry.key, entry);
    const includes = [...globalIncludes, ...section.includes.map((i) => i.file)];
    jobs.push(fioJob(section, options, includes, problems));
  }
  problems.sort((a, b) => a.span.start - b.span.start);
  return { file: { tool: 'fio', jobs, settings }, problems };
}

/** Reads one job's options (its own over the globals above it). */
function fioJob(
  section: Section,
  options: Map<string, Entry>,
  includes: readonly string[],
  problems: ParseProblem[],
): PerfJob {
  const included =
    includes.length > 0 ? `an \`include\` (${includes.map((f) => `\`${f}\``).join(', ')}) may set it` : undefined;
  /** The value of a key as text, or why it is not known. */
  const raw = (key: string): { entry: Entry; text: string } | { reason: string; span?: Span } | undefined => {
    const entry = options.get(key);
    if (!entry) return included ? { reason: `not written here, and ${included}` } : undefined;
    const text = entry.value ?? '';
    const later = runtimeOnly(text, 'fio');
    if (later) return { reason: later, span: entry.valueSpan };
    return { entry, text };
  };
  const kbBaseText = raw('kb_base');
  const kbBase =
    kbBaseText && 'text' in kbBaseText && kbBaseText.text.trim() === '1000' ? 1000 : FIO_DEFAULTS.kbBase.value;

  const number = (
    key: string,
    fallback: number | undefined,
    read: (text: string) => number | undefined,
  ): JobValue<number> => {
    const found = raw(key);
    if (!found) return fallback === undefined ? unknown(`\`${key}\` is not written`) : defaulted(fallback);
    if ('reason' in found) return unknown(found.reason, found.span);
    const value = read(found.text);
    if (value === undefined) {
      problems.push({
        code: PERFTEST_SYNTAX,
        span: found.entry.valueSpan,
        message: `\`${key}=${found.text}\` is not a value fio reads for \`${key}\`.`,
      });
      return unknown(`\`${key}=${found.text}\` is not a value anf-lint can read`, found.entry.valueSpan);
    }
    return known(value, found.entry.valueSpan);
  };
  const integer = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined);
  const flag = (key: string): boolean | undefined => {
    const found = raw(key);
    return found && 'text' in found ? fioBool(found.text) : undefined;
  };

  // The pattern: rw= and the read share.
  let access: JobValue<'sequential' | 'random'>;
  let readPercent: JobValue<number>;
  const rw = raw('rw');
  if (!rw) {
    access = defaulted('sequential');
    readPercent = defaulted(100);
  } else if ('reason' in rw) {
    access = unknown(rw.reason, rw.span);
    readPercent = unknown(rw.reason, rw.span);
  } else {
    const pattern = rw.text.split(':')[0]!.trim().toLowerCase();
    const span = rw.entry.valueSpan;
    const mix = (): JobValue<number> => {
      const write = raw('rwmixwrite');
      const read = number('rwmixread', FIO_DEFAULTS.rwmixreadPercent.value, integer);
      if (options.has('rwmixread') || !write) return read;
      if ('reason' in write) return unknown(write.reason, write.span);
      const w = integer(write.text);
      return w === undefined
        ? unknown(`\`rwmixwrite=${write.text}\` is not a number`)
        : known(100 - w, write.entry.valueSpan);
    };
    switch (pattern) {
      case 'read':
      case 'write':
      case 'randread':
      case 'randwrite':
        access = known(pattern.startsWith('rand') ? 'random' : 'sequential', span);
        readPercent = known(pattern.endsWith('read') ? 100 : 0, span);
        break;
      case 'rw':
      case 'readwrite':
      case 'randrw':
        access = known(pattern === 'randrw' ? 'random' : 'sequential', span);
        readPercent = mix();
        break;
      case 'trim':
      case 'randtrim':
      case 'trimwrite':
      case 'randtrimwrite':
        access = known(pattern.startsWith('rand') ? 'random' : 'sequential', span);
        readPercent = unknown(`\`rw=${pattern}\` trims: neither a read nor a write test`, span);
        break;
      default:
        problems.push({
          code: PERFTEST_SYNTAX,
          span,
          message: `\`rw=${rw.text}\` is not an I/O pattern fio knows (read, write, randread, randwrite, rw, randrw, trim, randtrim, trimwrite, randtrimwrite).`,
        });
        access = unknown(`\`rw=${rw.text}\` is not an I/O pattern fio knows`, span);
        readPercent = unknown(`\`rw=${rw.text}\` is not an I/O pattern fio knows`, span);
    }
  }

  // Block size: bs=read[,write[,trim]]; ranges and splits are several sizes.
  let blockSizeBytes: JobValue<number>;
  let bySize: PerfJob['blockSizesByDirection'];
  const several = ['bsrange', 'bssplit'].find((key) => options.has(key));
  const bs = raw('bs');
  if (several) blockSizeBytes = unknown(`\`${several}\` mixes several block sizes`, options.get(several)!.valueSpan);
  else if (!bs) blockSizeBytes = defaulted(FIO_DEFAULTS.blockSizeBytes.value);
  else if ('reason' in bs) blockSizeBytes = unknown(bs.reason, bs.span);
  else {
    const parts = bs.text.split(',').map((part) => part.trim());
    const sizeOf = (part: string | undefined): number | undefined | 'range' =>
      part === undefined || part === ''
        ? FIO_DEFAULTS.blockSizeBytes.value
        : /[-:]/.test(part)
          ? 'range'
          : fioBytes(part, kbBase);
    const read = sizeOf(parts[0]);
    const write = parts.length > 1 ? sizeOf(parts[1]) : read;
    const span = bs.entry.valueSpan;
    if (read === 'range' || write === 'range')
      blockSizeBytes = unknown(`\`bs=${bs.text}\` is a range of block sizes`, span);
    else if (read === undefined || write === undefined) {
      problems.push({ code: PERFTEST_SYNTAX, span, message: `\`bs=${bs.text}\` is not a block size fio reads.` });
      blockSizeBytes = unknown(`\`bs=${bs.text}\` is not a block size anf-lint can read`, span);
    } else if (read === write || (readPercent.known && readPercent.value === 100)) blockSizeBytes = known(read, span);
    else if (readPercent.known && readPercent.value === 0) blockSizeBytes = known(write, span);
    else {
      blockSizeBytes = unknown(`reads of ${formatSize(read)} and writes of ${formatSize(write)}`, span);
      bySize = { readBytes: read, writeBytes: write, span };
    }
  }

  // Direct or buffered.
  // `buffered=1` is `direct=0`; `direct` wins where both are written.
  const directValue = raw('direct');
  const key = directValue ? 'direct' : 'buffered';
  const written = directValue ?? raw('buffered');
  let direct: JobValue<boolean>;
  if (!written) direct = included ? unknown(`\`direct\` is not written here, and ${included}`) : defaulted(false);
  else if ('reason' in written) direct = unknown(written.reason, written.span);
  else {
    const value = fioBool(written.text);
    direct =
      value === undefined
        ? unknown(`\`${key}=${written.text}\` is not a boolean`, written.entry.valueSpan)
        : known(key === 'direct' ? value : !value, written.entry.valueSpan);
  }

  // Outstanding I/O: iodepth per job (for engines that queue) x numjobs.
  const iodepth = number('iodepth', FIO_DEFAULTS.iodepth.value, integer);
  const numjobs = number('numjobs', FIO_DEFAULTS.numjobs.value, integer);
  const engineValue = raw('ioengine');
  const engine = !engineValue
    ? FIO_DEFAULTS.ioengine.value
    : 'reason' in engineValue
      ? undefined
      : engineValue.text.split(':')[0]!.trim().toLowerCase();
  const userSpaceNfs = engine !== undefined && (FIO_ENGINES.userSpaceNfs.value as readonly string[]).includes(engine);
  let outstanding: JobValue<OutstandingIo>;
  if (engine === undefined) outstanding = unknown((engineValue as { reason: string }).reason);
  else if (!iodepth.known) outstanding = unknown(iodepth.reason, iodepth.span);
  else if (!numjobs.known) outstanding = unknown(numjobs.reason, numjobs.span);
  else {
    const depth = iodepth.value;
    const clones = numjobs.value;
    const engineWords = engineValue ? `ioengine=${engine}` : `${engine}, fio's default engine,`;
    const of = (perJob: number, why: string): JobValue<OutstandingIo> =>
      known({ total: perJob * clones, perJob, jobs: clones, why: clones > 1 ? `${why} x numjobs=${clones}` : why });
    if ((FIO_ENGINES.synchronous.value as readonly string[]).includes(engine))
      outstanding = of(1, `${engineWords} waits for each I/O${depth > 1 ? `, so iodepth=${depth} has no effect` : ''}`);
    else if ((FIO_ENGINES.directOnlyAsync.value as readonly string[]).includes(engine)) {
      if (!direct.known) outstanding = unknown(`${engineWords} queues only direct I/O, and ${direct.reason}`);
      else if (!direct.value)
        outstanding = of(
          1,
          `${engineWords} with buffered I/O waits for each I/O (Linux queues only non-buffered I/O)${depth > 1 ? `, so iodepth=${depth} has no effect` : ''}`,
        );
      else outstanding = of(depth, `iodepth=${depth}`);
    } else if ((FIO_ENGINES.asynchronous.value as readonly string[]).includes(engine) || userSpaceNfs)
      outstanding = of(depth, `iodepth=${depth}`);
    else outstanding = unknown(`anf-lint does not know how fio's \`${engine}\` engine queues I/O`);
  }

  // Targets: directory= and filename= (both colon-separated lists).
  let targets: JobValue<readonly JobTarget[]>;
  // `opendir` (every file below a folder) stands for `directory` when neither is written.
  const directory = raw('directory') ?? raw('opendir');
  const filename = raw('filename');
  if (userSpaceNfs)
    targets = unknown('`ioengine=nfs` reaches the server through libnfs (`nfs_url`), not through a mount');
  else if ((directory && 'reason' in directory) || (filename && 'reason' in filename)) {
    const why = [directory, filename].find((v) => v && 'reason' in v) as { reason: string; span?: Span };
    targets = unknown(why.reason, why.span);
  } else if (!directory && !filename)
    targets = unknown('no `directory` or `filename`: fio makes its files in the folder it runs in');
  else {
    const dirs = directory && 'text' in directory ? fioPathList(directory.text, directory.entry.valueSpan.start) : [];
    const files = filename && 'text' in filename ? fioPathList(filename.text, filename.entry.valueSpan.start) : [];
    const list: JobTarget[] = [];
    if (files.length > 0) {
      for (const file of files) {
        if (file.path === '-') continue;
        const path =
          file.path.startsWith('/') || dirs.length === 0
            ? file.path
            : `${dirs[0]!.path.replace(/\/+$/, '')}/${file.path}`;
        list.push({ path, kind: 'file', span: file.span });
      }
    } else for (const dir of dirs) list.push({ path: dir.path, kind: 'directory', span: dir.span });
    targets = known(list);
  }

  // Working set: size (per clone; one set when the clones share named files), else filesize x nrfiles.
  let workingSetBytes: JobValue<number>;
  const shared = filename !== undefined && 'text' in filename && filename.text.trim() !== '';
  const clones = numjobs.known ? numjobs.value : undefined;
  const size = raw('size');
  const filesize = raw('filesize');
  const perClone = (bytes: number, why: JobValue<number>['span']): JobValue<number> =>
    shared ? known(bytes, why) : clones === undefined ? unknown('`numjobs` is not known') : known(bytes * clones, why);
  if (size && 'reason' in size) workingSetBytes = unknown(size.reason, size.span);
  else if (size) {
    if (/%$/.test(size.text.trim()))
      workingSetBytes = unknown(
        `\`size=${size.text}\` is a share of the files' or device's size`,
        size.entry.valueSpan,
      );
    else {
      const bytes = fioBytes(size.text, kbBase);
      if (bytes === undefined) {
        problems.push({
          code: PERFTEST_SYNTAX,
          span: size.entry.valueSpan,
          message: `\`size=${size.text}\` is not a size fio reads.`,
        });
        workingSetBytes = unknown(`\`size=${size.text}\` is not a size anf-lint can read`, size.entry.valueSpan);
      } else workingSetBytes = perClone(bytes, size.entry.valueSpan);
    }
  } else if (filesize && 'text' in filesize) {
    const bytes = /[-:]/.test(filesize.text) ? undefined : fioBytes(filesize.text, kbBase);
    const files = number('nrfiles', FIO_DEFAULTS.nrfiles.value, integer);
    if (bytes === undefined)
      workingSetBytes = unknown(`\`filesize=${filesize.text}\` is a range of sizes`, filesize.entry.valueSpan);
    else if (!files.known) workingSetBytes = unknown(files.reason, files.span);
    else workingSetBytes = perClone(bytes * files.value, filesize.entry.valueSpan);
  } else if (filesize && 'reason' in filesize) workingSetBytes = unknown(filesize.reason, filesize.span);
  else workingSetBytes = unknown('neither `size` nor `filesize` is written: fio uses the size of the files that exist');

  const runtimeSeconds = number('runtime', undefined, fioSeconds);
  const rampSeconds = number('ramp_time', undefined, fioSeconds);
  const loops = number('loops', 1, integer);
  const rereads = flag('time_based') === true || (loops.known && loops.value > 1);
  const flushesWrites =
    flag('end_fsync') === true ||
    flag('fsync_on_close') === true ||
    ['fsync', 'fdatasync'].some((key) => {
      const found = raw(key);
      return found !== undefined && 'text' in found && Number(found.text) > 0;
    });
  const rateLimited = ['rate', 'rate_iops'].some((key) => {
    const found = raw(key);
    return found !== undefined && 'text' in found && /[1-9]/.test(found.text);
  });

  return {
    tool: 'fio',
    name: section.name,
    span: section.span,
    targets,
    access,
    readPercent,
    blockSizeBytes,
    ...(bySize ? { blockSizesByDirection: bySize } : {}),
    outstanding,
    direct,
    workingSetBytes,
    runtimeSeconds,
    rampSeconds,
    rereads,
    flushesWrites,
    rateLimited,
    userSpaceNfs,
  };
}
