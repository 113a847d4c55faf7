import type { ResolvedConfig } from '../config';
import type { Span } from '../text/sourceText';
import { formatMiBps, formatSizeIn, GiB } from '../units/units';
import type { ParsedFile } from '../workspace/parsedFile';
import type { WorkspaceView } from '../workspace/workspaceView';
import { perftestInlayHints } from './perftest';
import { figuresOf, poolFigureLine, volumeFigureLine, volumesOf } from './manifestIndex';

/** A document symbol in plain data; the LSP maps `kind` to SymbolKind. */
export interface CoreSymbol {
  readonly name: string;
  readonly detail?: string;
  readonly kind: 'account' | 'pool' | 'volume' | 'mount' | 'setting';
  readonly span: Span;
  readonly selectionSpan: Span;
  readonly children: readonly CoreSymbol[];
}

/**
 * The outline: accounts > pools > volumes for manifests, one entry per mount and kernel setting.
 * Every symbol is a valid LSP symbol: its range inside the document, its selection inside its range
 * (VS Code drops the whole outline when one symbol breaks this).
 */
export function computeSymbols(file: ParsedFile): CoreSymbol[] {
  return computeRawSymbols(file).map((symbol) => validSymbol(symbol, file.source.text.length));
}

/**
 * A symbol whose range lies in `[0, length]` and holds its selection. A name written elsewhere (a
 * mount point in a loop item's sibling key or a container's `volumeMounts`, a Terraform name in a
 * variable, a Salt state's ID above its call) leaves the selection on the symbol's own text.
 */
function validSymbol(symbol: CoreSymbol, length: number): CoreSymbol {
  const clamp = (offset: number) => Math.max(0, Math.min(offset, length));
  const start = clamp(symbol.span.start);
  const span = { start, end: Math.max(start, clamp(symbol.span.end)) };
  const inside =
    symbol.selectionSpan.start >= span.start &&
    symbol.selectionSpan.end <= span.end &&
    symbol.selectionSpan.start <= symbol.selectionSpan.end;
  return {
    ...symbol,
    span,
    selectionSpan: inside ? symbol.selectionSpan : span,
    children: symbol.children.map((child) => validSymbol(child, length)),
  };
}

function computeRawSymbols(file: ParsedFile): CoreSymbol[] {
  const symbols: CoreSymbol[] = [];
  for (const account of file.manifest?.accounts ?? []) {
    symbols.push({
      name: account.name?.value ?? '(account)',
      kind: 'account',
      span: account.span,
      selectionSpan: account.name?.span ?? account.headSpan,
      children: account.pools.map((pool) => ({
        name: pool.name?.value ?? '(pool)',
        ...(pool.serviceLevel ? { detail: pool.serviceLevel.value } : {}),
        kind: 'pool' as const,
        span: pool.span,
        selectionSpan: pool.name?.span ?? pool.headSpan,
        children: pool.volumes.map((volume) => ({
          name: volume.name?.value ?? '(volume)',
          ...(volume.quota ? { detail: formatSizeIn(volume.quota.value.bytes, 'TiB') } : {}),
          kind: 'volume' as const,
          span: volume.span,
          selectionSpan: volume.name?.span ?? volume.headSpan,
          children: [],
        })),
      })),
    });
  }
  for (const mount of file.mounts) {
    symbols.push({
      name: mount.mountPoint ?? mount.source ?? 'mount',
      ...(mount.source ? { detail: mount.source } : {}),
      kind: 'mount',
      span: mount.span,
      // The first of the mount's parts written inside its own text.
      selectionSpan:
        [mount.mountPointSpan, mount.sourceSpan, mount.optionsSpan].find(
          (part) => part !== undefined && part.start >= mount.span.start && part.end <= mount.span.end,
        ) ?? mount.span,
      children: [],
    });
  }
  for (const setting of file.settings) {
    symbols.push({
      name: setting.key,
      detail: setting.value,
      kind: 'setting',
      span: setting.span,
      selectionSpan: setting.keySpan,
      children: [],
    });
  }
  return nestedByText(symbols);
}

function contains(outer: Span, inner: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/**
 * The outline as LSP defines it: a symbol's selection range lies inside its range, and a child's
 * range inside its parent's (VS Code drops the whole outline otherwise: issue 26). The estate is a
 * tree by reference, not by text: in Terraform, ARM and most Bicep a volume is a block of its own
 * that names its pool. Such a child is listed beside its parent, in text order, its detail naming
 * the parent; a child written inside its parent's block (Bicep nested resources, a manifest) stays
 * nested.
 */
function nestedByText(symbols: readonly CoreSymbol[]): CoreSymbol[] {
  return fitInto(symbols, undefined).kept;
}

/** The symbols whose text lies inside `parent` (all of them at the top), and those that escape it. */
function fitInto(
  symbols: readonly CoreSymbol[],
  parent: CoreSymbol | undefined,
): { kept: CoreSymbol[]; escaped: CoreSymbol[] } {
  const kept: CoreSymbol[] = [];
  const escaped: CoreSymbol[] = [];
  // `own`: one of the parent's children, which names the parent when it leaves it; otherwise a
  // symbol that already left its own parent further down, passed on as it is.
  const place = (symbol: CoreSymbol, own: boolean) => {
    if (!parent || contains(parent.span, symbol.span)) kept.push(symbol);
    else
      escaped.push(
        own
          ? { ...symbol, detail: [symbol.detail, `in ${parent.kind} ${parent.name}`].filter(Boolean).join(', ') }
          : symbol,
      );
  };
  for (const symbol of symbols) {
    // A selection outside the symbol is set right by validSymbol, after the nesting.
    const children = fitInto(symbol.children, symbol);
    place({ ...symbol, children: children.kept }, true);
    for (const child of children.escaped) place(child, false);
  }
  return { kept: kept.sort(byStart), escaped };
}

function byStart(a: CoreSymbol, b: CoreSymbol): number {
  return a.span.start - b.span.start;
}

/** Folding for manifests: every account, pool, volume and requirements block that spans lines. */
export function computeFoldingRanges(file: ParsedFile): { startLine: number; endLine: number }[] {
  const manifest = file.manifest;
  if (!manifest) return [];
  const spans: Span[] = [];
  for (const account of manifest.accounts) {
    spans.push(account.span);
    for (const pool of account.pools) {
      spans.push(pool.span);
      for (const volume of pool.volumes) {
        spans.push(volume.span);
        if (volume.requirements) spans.push(volume.requirements.span);
      }
    }
  }
  const ranges: { startLine: number; endLine: number }[] = [];
  const seen = new Set<string>();
  for (const span of spans) {
    const startLine = file.source.positionAt(span.start).line;
    // A span that ends at the start of a line ends on the line before.
    const end = file.source.positionAt(span.end);
    const endLine = end.character === 0 && end.line > startLine ? end.line - 1 : end.line;
    const key = `${startLine}:${endLine}`;
    if (endLine > startLine && !seen.has(key)) {
      seen.add(key);
      ranges.push({ startLine, endLine });
    }
  }
  return ranges;
}

/** Code lenses: the figures of each pool and volume above its name. */
export function computeCodeLenses(file: ParsedFile, config: ResolvedConfig): { span: Span; title: string }[] {
  const manifest = file.manifest;
  if (!manifest) return [];
  const figures = figuresOf(manifest, config);
  const lenses: { span: Span; title: string }[] = [];
  for (const account of manifest.accounts) {
    for (const pool of account.pools) {
      const f = figures.pool(pool);
      const title = f ? poolFigureLine(f) : '';
      if (title) lenses.push({ span: pool.name?.span ?? pool.headSpan, title: `Pool: ${title}` });
    }
  }
  for (const { volume } of volumesOf(manifest)) {
    const f = figures.volume(volume);
    const title = f ? volumeFigureLine(f) : '';
    if (title) lenses.push({ span: volume.name?.span ?? volume.headSpan, title: `Volume: ${title}` });
  }
  return distinct(lenses, (l) => `${l.span.start}\u0000${l.title}`).sort((a, b) => a.span.start - b.span.start);
}

/**
 * One of each: the volumes of a Terraform or Bicep module instance may share the caller's
 * argument that sets their quota or name (iac/instance.ts), and would repeat the same hint there.
 */
function distinct<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Inlay hints: after each quota its throughput limit; after each pool size its throughput budget; after each test job its volume's ceiling. */
export function computeInlayHints(
  file: ParsedFile,
  config: ResolvedConfig,
  within?: Span,
  workspace?: WorkspaceView,
): { offset: number; label: string; tooltip?: string }[] {
  // A performance-test job file: the ceiling of the volume each job tests, at its block size.
  if (file.perftest) return workspace ? perftestInlayHints(workspace, file, within) : [];
  const manifest = file.manifest;
  if (!manifest) return [];
  const figures = figuresOf(manifest, config);
  // An empty span: a value written in a called module, not here (iac/instance.ts): its hint is the module's.
  const inside = (span: Span) =>
    span.end > span.start && (!within || (span.end >= within.start && span.start <= within.end));
  const hints: { offset: number; label: string; tooltip?: string }[] = [];
  for (const account of manifest.accounts) {
    for (const pool of account.pools) {
      const f = figures.pool(pool);
      if (pool.size && f?.budgetMiBps !== undefined && inside(pool.size.span)) {
        hints.push({
          offset: pool.size.span.end,
          label: `→ ${formatMiBps(f.budgetMiBps)} budget`,
          tooltip: `${pool.serviceLevel?.value ?? ''} pool of ${formatSizeIn(pool.size.value.bytes, 'TiB')}: the throughput it hands out.`,
        });
      }
      for (const volume of pool.volumes) {
        const v = figures.volume(volume);
        if (volume.quota && v?.throughput && inside(volume.quota.span)) {
          hints.push({
            offset: volume.quota.span.end,
            label: `→ ${formatMiBps(v.throughput.mibps)}`,
            tooltip:
              v.throughput.basis === 'quota'
                ? `Throughput limit of ${formatSizeIn((v.quotaGiB ?? 0) * GiB, 'TiB')} at ${v.throughput.rateMiBpsPerTiB ?? '?'} MiB/s per TiB.`
                : 'Assigned throughput (manual QoS).',
          });
        }
      }
    }
  }
  return distinct(hints, (h) => `${h.offset}\u0000${h.label}`).sort((a, b) => a.offset - b.offset);
}
