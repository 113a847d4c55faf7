import type { ParseProblem } from '../diagnostics';
import { VDBENCH_DEFAULTS } from '../facts';
import type { Span } from '../text/sourceText';
import { formatNumber } from '../units/units';
import { PERFTEST_SYNTAX } from './fio';
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
import { indentOf, linesOf, listItems, runtimeOnly, splitTopLevel, vdbenchNumber } from './values';

/**
 * vdbench parameter files (Users Guide, "Parameter file(s)"; Vdb_scan.java): lines of
 * `keyword=value` items separated by commas, each definition starting with its type keyword
 * (`hd=`, `sd=`, `wd=`, `fsd=`, `fwd=`, `rd=`); a line ending with a comma continues on the next;
 * lines starting with `*`, `#` or `/` are comments, and everything after the first blank too; a
 * line starting with `eof` ends the file; `name=default` sets defaults for the definitions of its
 * type that follow; `include=file` pulls in another file.
 */

const TYPES = new Set(['hd', 'rg', 'sd', 'wd', 'fsd', 'fwd', 'rd']);

interface Item {
  readonly key: string;
  readonly value: string;
  readonly keySpan: Span;
  readonly valueSpan: Span;
}

interface Definition {
  readonly type: string;
  readonly name: string;
  readonly span: Span;
  readonly items: Map<string, Item>;
}

/** Other spellings vdbench accepts for the keys anf-lint reads. */
const ALIASES: Readonly<Record<string, string>> = { xfersizes: 'xfersize', wss: 'workingsetsize' };

export function readVdbench(text: string): { file: PerfTestFile; problems: ParseProblem[] } {
  const problems: ParseProblem[] = [];
  const settings: PerfSetting[] = [];
  const definitions: Definition[] = [];
  const defaults = new Map<string, Map<string, Item>>();
  const includes: string[] = [];
  let current: Definition | undefined;
  let continues = false;
  for (const line of linesOf(text)) {
    const indent = indentOf(line.text);
    const trimmed = line.text.trim();
    if (trimmed.startsWith('eof')) break;
    if (trimmed === '' || /^[*#/]/.test(trimmed)) continue;
    // Everything after the first blank outside quotes is a comment.
    let end = 0;
    let quoted = false;
    while (end < trimmed.length && (quoted || !/\s/.test(trimmed[end]!))) {
      if (trimmed[end] === '"') quoted = !quoted;
      end++;
    }
    const body = trimmed.slice(0, end);
    const start = line.start + indent;
    const items: Item[] = [];
    for (const part of splitTopLevel(body, start, ',')) {
      if (part.text === '') continue;
      const equals = part.text.indexOf('=');
      if (equals <= 0) {
        problems.push({
          code: PERFTEST_SYNTAX,
          span: part.span,
          message: `\`${part.text}\` is not a \`keyword=value\` parameter: vdbench stops with "Expecting 'keyword=' in parameter".`,
        });
        continue;
      }
      const rawKey = part.text.slice(0, equals).trim().toLowerCase();
      items.push({
        key: ALIASES[rawKey] ?? rawKey,
        value: part.text.slice(equals + 1),
        keySpan: { start: part.span.start, end: part.span.start + equals },
        valueSpan: { start: part.span.start + equals + 1, end: part.span.end },
      });
    }
    if ((body.match(/\(/g) ?? []).length !== (body.match(/\)/g) ?? []).length)
      problems.push({
        code: PERFTEST_SYNTAX,
        span: { start, end: start + body.length },
        message: 'Unmatched parenthesis: vdbench stops with "Unmatched Parenthesis".',
      });
    const first = items[0];
    if (!continues && first && TYPES.has(first.key)) {
      const span = { start: first.keySpan.start, end: first.valueSpan.end };
      if (first.value === 'default') {
        let merged = defaults.get(first.key);
        if (!merged) {
          merged = new Map();
          defaults.set(first.key, merged);
        }
        current = { type: first.key, name: 'default', span, items: merged };
      } else {
        current = { type: first.key, name: first.value, span, items: new Map(defaults.get(first.key)) };
        definitions.push(current);
      }
      items.shift();
      settings.push({ ...first, owner: `${current.type}=${current.name}` });
    } else if (!continues) current = undefined;
    for (const item of items) {
      if (item.key === 'include') includes.push(item.value);
      if (current) current.items.set(item.key, item);
      settings.push({ ...item, owner: current ? `${current.type}=${current.name}` : 'general' });
    }
    continues = body.endsWith(',');
  }
  const jobs = definitions.filter((d) => d.type === 'rd').map((rd) => vdbenchRun(rd, definitions, includes, problems));
  return { file: { tool: 'vdbench', jobs, settings }, problems };
}

/** Names a definition uses: `wd=(wd1,wd2)`, `sd=sd*` (a wildcard). */
function matching(pattern: string, type: string, definitions: readonly Definition[]): Definition[] {
  const names = listItems(pattern);
  return definitions.filter(
    (d) =>
      d.type === type &&
      names.some((name) =>
        new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(d.name),
      ),
  );
}

function vdbenchRun(
  rd: Definition,
  definitions: readonly Definition[],
  includes: readonly string[],
  problems: ParseProblem[],
): PerfJob {
  const minutes = VDBENCH_DEFAULTS.secondsPerMinute.value;
  const hours = VDBENCH_DEFAULTS.secondsPerHour.value;
  const elsewhere =
    includes.length > 0 ? `, and an \`include=\` (${includes.map((f) => `\`${f}\``).join(', ')}) may define it` : '';
  const later = (item: Item | undefined) => (item ? runtimeOnly(item.value, 'vdbench') : undefined);
  const numberOf = (item: Item | undefined): JobValue<number> | undefined => {
    if (!item) return undefined;
    const why = later(item);
    if (why) return unknown(why, item.valueSpan);
    const value = vdbenchNumber(item.value, item.key, minutes, hours);
    return value === undefined
      ? unknown(`\`${item.key}=${item.value}\` is not one number`, item.valueSpan)
      : known(value, item.valueSpan);
  };
  const loopWhy = (key: string) =>
    rd.items.has(`for${key}`) ? `\`for${key}=\` runs the test once for each of several values` : undefined;
  const directFlag = (item: Item | undefined) => item !== undefined && /o_direct|directio/i.test(item.value);
  const rateItem = rd.items.get('iorate') ?? rd.items.get('fwdrate');
  const rateLimited = rateItem !== undefined && /^\d/.test(rateItem.value.trim());
  const common = {
    tool: 'vdbench' as const,
    name: rd.name,
    span: rd.span,
    runtimeSeconds:
      numberOf(rd.items.get('elapsed')) ?? unknown<number>('`elapsed=` is not written: vdbench runs its default time'),
    rampSeconds: numberOf(rd.items.get('warmup')) ?? unknown<number>('`warmup=` is not written'),
    rereads: true,
    flushesWrites: false,
    rateLimited,
    userSpaceNfs: false,
  };

  const wdRef = rd.items.get('wd');
  const fwdRef = rd.items.get('fwd');
  if (wdRef) {
    const wds = matching(wdRef.value, 'wd', definitions);
    if (wds.length === 0) {
      if (!elsewhere)
        problems.push({
          code: PERFTEST_SYNTAX,
          span: wdRef.valueSpan,
          message: `\`wd=${wdRef.value}\` names no workload definition in this file: vdbench stops.`,
        });
      return noJob(common, `\`wd=${wdRef.value}\` names no workload definition here${elsewhere}`);
    }
    const sds = new Map<string, Definition>();
    for (const wd of wds) {
      const ref = wd.items.get('sd');
      for (const sd of ref ? matching(ref.value, 'sd', definitions) : []) sds.set(sd.name, sd);
    }
    const agree = <T>(values: JobValue<T>[], what: string): JobValue<T> => {
      const firstUnknown = values.find((v) => !v.known);
      if (firstUnknown) return firstUnknown;
      const first = values[0]!;
      return values.every((v) => v.known && first.known && v.value === first.value)
        ? first
        : unknown(`the run's ${values.length} workloads differ in ${what}`);
    };
    const access = agree(
      wds.map((wd): JobValue<'sequential' | 'random'> => {
        const item = wd.items.get('seekpct');
        const loopReason = loopWhy('seekpct');
        if (loopReason) return unknown(loopReason);
        if (!item) return defaulted('random');
        const value = item.value.trim().toLowerCase();
        if (/^(?:seq|sequential|eof|0)$/.test(value)) return known('sequential', item.valueSpan);
        if (/^(?:random|100)$/.test(value)) return known('random', item.valueSpan);
        return unknown(`\`seekpct=${item.value}\` mixes sequential and random I/O`, item.valueSpan);
      }),
      'access',
    );
    const readPercent = agree(
      wds.map((wd) =>
        loopWhy('rdpct')
          ? unknown<number>(loopWhy('rdpct')!)
          : (numberOf(wd.items.get('rdpct')) ?? defaulted(VDBENCH_DEFAULTS.rdpct.value)),
      ),
      'read share',
    );
    const blockSizeBytes = agree(
      wds.map((wd) => {
        if (loopWhy('xfersize')) return unknown<number>(loopWhy('xfersize')!);
        const item = wd.items.get('xfersize');
        if (item?.value.startsWith('('))
          return unknown<number>(`\`xfersize=${item.value}\` is several transfer sizes`, item.valueSpan);
        return numberOf(item) ?? defaulted(VDBENCH_DEFAULTS.wdXferBytes.value);
      }),
      'transfer size',
    );
    const rdThreads = numberOf(rd.items.get('threads'));
    let outstanding: JobValue<OutstandingIo>;
    if (loopWhy('threads')) outstanding = unknown(loopWhy('threads')!);
    else if (sds.size === 0) outstanding = unknown('the workloads name no storage definition in this file');
    else if (rdThreads && !rdThreads.known) outstanding = unknown(rdThreads.reason, rdThreads.span);
    else {
      let total = 0;
      let unknownWhy: string | undefined;
      for (const sd of sds.values()) {
        const threads = rdThreads ?? numberOf(sd.items.get('threads')) ?? defaulted(VDBENCH_DEFAULTS.sdThreads.value);
        if (!threads.known) unknownWhy = threads.reason;
        else total += threads.value;
      }
      const perJob = rdThreads?.known ? rdThreads.value : total / sds.size;
      outstanding = unknownWhy
        ? unknown(unknownWhy)
        : known({
            total,
            perJob,
            jobs: sds.size,
            why: rdThreads?.known
              ? `threads=${formatNumber(rdThreads.value)} for each of ${sds.size} storage definition${sds.size > 1 ? 's' : ''}`
              : [...sds.values()]
                  .map(
                    (sd) =>
                      `${sd.name}: threads=${sd.items.get('threads')?.value ?? `${VDBENCH_DEFAULTS.sdThreads.value} (the default)`}`,
                  )
                  .join(', '),
          });
    }
    const targets: JobValue<readonly JobTarget[]> = known(
      [...sds.values()].flatMap((sd) => {
        const lun = sd.items.get('lun');
        return lun && !later(lun) ? [{ path: lun.value, kind: 'file' as const, span: lun.valueSpan }] : [];
      }),
    );
    const direct = [rd, ...wds, ...sds.values()].some((d) => directFlag(d.items.get('openflags')))
      ? known(true)
      : defaulted(false);
    let workingSetBytes: JobValue<number> = known(0);
    for (const sd of sds.values()) {
      const size =
        numberOf(sd.items.get('size')) ??
        unknown<number>(`\`sd=${sd.name}\` has no \`size=\`: vdbench uses the size of the existing file or device`);
      if (!size.known) {
        workingSetBytes = size;
        break;
      }
      if (workingSetBytes.known) workingSetBytes = known(workingSetBytes.value + size.value, size.span);
    }
    if (sds.size === 0) workingSetBytes = unknown('the workloads name no storage definition in this file');
    return { ...common, targets, access, readPercent, blockSizeBytes, outstanding, direct, workingSetBytes };
  }
  if (fwdRef) {
    const fwds = matching(fwdRef.value, 'fwd', definitions);
    if (fwds.length === 0) {
      if (!elsewhere)
        problems.push({
          code: PERFTEST_SYNTAX,
          span: fwdRef.valueSpan,
          message: `\`fwd=${fwdRef.value}\` names no file system workload definition in this file: vdbench stops.`,
        });
      return noJob(common, `\`fwd=${fwdRef.value}\` names no file system workload definition here${elsewhere}`);
    }
    const fsds = new Map<string, Definition>();
    for (const fwd of fwds) {
      const ref = fwd.items.get('fsd');
      for (const fsd of ref ? matching(ref.value, 'fsd', definitions) : []) fsds.set(fsd.name, fsd);
    }
    const same = <T>(values: JobValue<T>[], what: string): JobValue<T> => {
      const firstUnknown = values.find((v) => !v.known);
      if (firstUnknown) return firstUnknown;
      const first = values[0]!;
      return values.every((v) => v.known && first.known && v.value === first.value)
        ? first
        : unknown(`the run's ${values.length} file workloads differ in ${what}`);
    };
    const access = same(
      fwds.map((fwd): JobValue<'sequential' | 'random'> => {
        const item = fwd.items.get('fileio');
        if (!item) return defaulted(VDBENCH_DEFAULTS.fileio.value === 'sequential' ? 'sequential' : 'random');
        const first = listItems(item.value)[0]?.toLowerCase() ?? '';
        if (first.startsWith('seq')) return known('sequential', item.valueSpan);
        if (first.startsWith('random')) return known('random', item.valueSpan);
        return unknown(`\`fileio=${item.value}\` is not one anf-lint reads`, item.valueSpan);
      }),
      'access',
    );
    const operations = rd.items.get('operations');
    const readPercent = operations
      ? unknown<number>(`\`operations=${operations.value}\` in the run sets the operations`, operations.valueSpan)
      : same(
          fwds.map((fwd): JobValue<number> => {
            const rdpct = numberOf(fwd.items.get('rdpct'));
            if (rdpct) return rdpct;
            const operation = fwd.items.get('operation');
            if (!operation) return unknown('`operation=` is not written');
            const op = operation.value.trim().toLowerCase();
            if (op === 'read') return known(100, operation.valueSpan);
            if (op === 'write') return known(0, operation.valueSpan);
            return unknown(`\`operation=${operation.value}\` is not a data read or write`, operation.valueSpan);
          }),
          'read share',
        );
    const blockSizeBytes = same(
      fwds.map((fwd) => {
        if (loopWhy('xfersize')) return unknown<number>(loopWhy('xfersize')!);
        const item = fwd.items.get('xfersize');
        if (item?.value.startsWith('('))
          return unknown<number>(`\`xfersize=${item.value}\` is several transfer sizes`, item.valueSpan);
        return numberOf(item) ?? unknown<number>('`xfersize=` is not written');
      }),
      'transfer size',
    );
    const rdThreads = numberOf(rd.items.get('threads'));
    let outstanding: JobValue<OutstandingIo>;
    if (loopWhy('threads')) outstanding = unknown(loopWhy('threads')!);
    else if (rdThreads)
      outstanding = rdThreads.known
        ? known({
            total: rdThreads.value,
            perJob: rdThreads.value,
            jobs: 1,
            why: `threads=${formatNumber(rdThreads.value)} in the run`,
          })
        : unknown(rdThreads.reason, rdThreads.span);
    else {
      const threads = fwds.map(
        (fwd) =>
          numberOf(fwd.items.get('threads')) ?? unknown<number>(`\`threads=\` is not written in \`fwd=${fwd.name}\``),
      );
      const missing = threads.find((t) => !t.known);
      outstanding =
        missing && !missing.known
          ? unknown(missing.reason, missing.span)
          : known({
              total: threads.reduce((sum, t) => sum + (t.known ? t.value : 0), 0),
              perJob: threads.reduce((sum, t) => sum + (t.known ? t.value : 0), 0),
              jobs: 1,
              why: fwds.map((fwd) => `threads=${fwd.items.get('threads')?.value}`).join(' + '),
            });
    }
    const targets: JobValue<readonly JobTarget[]> = known(
      [...fsds.values()].flatMap((fsd) => {
        const anchor = fsd.items.get('anchor');
        return anchor && !later(anchor)
          ? [{ path: anchor.value, kind: 'directory' as const, span: anchor.valueSpan }]
          : [];
      }),
    );
    const direct = [rd, ...fwds, ...fsds.values()].some((d) => directFlag(d.items.get('openflags')))
      ? known(true)
      : defaulted(false);
    let workingSetBytes: JobValue<number> =
      fsds.size === 0 ? unknown('the workloads name no file system definition in this file') : known(0);
    for (const fsd of fsds.values()) {
      if (!workingSetBytes.known) break;
      const wss = numberOf(fsd.items.get('workingsetsize'));
      if (wss) {
        workingSetBytes = wss.known ? known(workingSetBytes.value + wss.value, wss.span) : wss;
        continue;
      }
      const sizeItem = fsd.items.get('size');
      if (sizeItem?.value.startsWith('(')) {
        workingSetBytes = unknown(`\`size=${sizeItem.value}\` is several file sizes`, sizeItem.valueSpan);
        break;
      }
      const parts = ['files', 'width', 'depth', 'size'].map((key) => [key, numberOf(fsd.items.get(key))] as const);
      const missing = parts.find(([, v]) => !v?.known);
      if (missing) {
        const [key, v] = missing;
        workingSetBytes = v && !v.known ? v : unknown(`\`fsd=${fsd.name}\` has no \`${key}=\``);
        break;
      }
      const [files, width, depth, size] = parts.map(([, v]) => (v as { value: number }).value) as [
        number,
        number,
        number,
        number,
      ];
      workingSetBytes = known(workingSetBytes.value + files * width ** depth * size, fsd.items.get('size')!.valueSpan);
    }
    return { ...common, targets, access, readPercent, blockSizeBytes, outstanding, direct, workingSetBytes };
  }
  return noJob(common, 'the run names no `wd=` or `fwd=`');
}

function noJob(
  common: Omit<
    PerfJob,
    'targets' | 'access' | 'readPercent' | 'blockSizeBytes' | 'outstanding' | 'direct' | 'workingSetBytes'
  >,
  reason: string,
): PerfJob {
  return {
    ...common,
    targets: unknown(reason),
    access: unknown(reason),
    readPercent: unknown(reason),
    blockSizeBytes: unknown(reason),
    outstanding: unknown(reason),
    direct: unknown(reason),
    workingSetBytes: unknown(reason),
  };
}
