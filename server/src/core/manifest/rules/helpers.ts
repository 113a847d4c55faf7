import { byApplicability, type Fix, type SpanEdit } from '../../diagnostics';
import type { RuleContext, RuleDoc, RuleExample } from '../../rules/rule';
import { reportProblems } from '../../rules/problems';
import { defineRule, type Rule } from '../../rules/rule';
import type { Severity } from '../../diagnostics';
import type { ParsedFile } from '../../workspace/parsedFile';
import type { SourceText, Span } from '../../text/sourceText';
import { formatNumber, formatSizeIn, GiB } from '../../units/units';
import { computeManifestFigures, type ManifestFigures } from '../figures';
import {
  poolMemberVolumes,
  type Located,
  type ManifestCoolAccess,
  type ManifestDocument,
  type ManifestPool,
  type ManifestVolume,
} from '../model';

/** Shared shapes for the manifest rules: iteration over the estate, figures, and value fixes. */

export function isManifest(file: ParsedFile): boolean {
  // Infrastructure code (Terraform, Bicep, ARM, az output) fills the same model (iac/).
  return file.kind === 'manifest-yaml' || file.kind === 'manifest-json' || file.manifest?.format === 'iac';
}

export function figuresOf(context: RuleContext, manifest: ManifestDocument): ManifestFigures {
  return computeManifestFigures(manifest, context.config);
}

export { pools, volumes, type PoolVisit, type VolumeVisit } from '../visits';

/** An edit that replaces a scalar's text (inside its quotes), or undefined when it must not be edited. */
export function replaceValue(value: Located<unknown> | undefined, newText: string): SpanEdit | undefined {
  if (!value?.editSpan) return undefined;
  const text = value.rewrite ? value.rewrite(newText) : newText;
  return text === undefined ? undefined : { span: value.editSpan, newText: text };
}

/** A fix from edits (`fixOf.safe(title, edits)`, `fixOf.unsafe(...)`); undefined when any edit is not possible. */
export const fixOf = byApplicability(
  (applicability, title: string, edits: readonly (SpanEdit | undefined)[]): Fix | undefined => {
    if (edits.length === 0 || edits.some((e) => e === undefined)) return undefined;
    return { title, edits: edits as SpanEdit[], applicability };
  },
);

export function fixes(...candidates: (Fix | undefined)[]): { fixes?: Fix[] } {
  const list = candidates.filter((f): f is Fix => f !== undefined);
  return list.length > 0 ? { fixes: list } : {};
}

/** `pool \`tools\`` for messages. */
export function named(kind: string, name: Located<string> | undefined): string {
  return name ? `${kind} \`${name.value}\`` : `this ${kind}`;
}

/** A size as people write it in the manifest: whole TiB as TiB, else whole GiB. */
export function sizeText(gib: number): string {
  return gib % 1024 === 0 ? `${gib / 1024} TiB` : `${gib} GiB`;
}

/** Parse problems are found by the parser; each code is a rule that reports its own problems. */
export function parseProblemRule(spec: {
  code: string;
  name: string;
  defaultSeverity: Severity;
  fixes: Rule['fixes'];
  doc: RuleDoc;
}): Rule {
  return defineRule({
    ...spec,
    domain: 'manifest',
    appliesTo: isManifest,
    check: (context) => reportProblems(spec.code, context),
  });
}

/**
 * What a finding on a pool's totals rests on (`Finding.restsOn`): the pool's size and throughput,
 * and the quota and throughput of each volume of it written in this file.
 */
export function poolValueSpans(pool: ManifestPool): Span[] {
  const spans: Span[] = [];
  for (const value of [pool.size, pool.throughput]) if (value) spans.push(value.span);
  for (const volume of pool.volumes)
    for (const value of [volume.quota, volume.throughput]) if (value) spans.push(value.span);
  return spans;
}

/**
 * What a finding on a volume's throughput rests on (`Finding.restsOn`): the volume's quota and
 * throughput, and its pool's service level and QoS type, which the rate comes from.
 */
export function volumeValueSpans(pool: ManifestPool, volume: ManifestVolume): Span[] {
  const spans: Span[] = [];
  for (const value of [volume.quota, volume.throughput, pool.serviceLevel, pool.qos]) if (value) spans.push(value.span);
  return spans;
}

/** Sum of the volume quotas of a pool, in GiB. */
export function allocatedGiB(pool: ManifestPool): number {
  // Once per pool (the same sum, in the same order): ANF116 asks for every volume of the pool.
  let sum = ALLOCATED.get(pool);
  if (sum === undefined) {
    sum = poolMemberVolumes(pool).reduce((total, v) => total + (v.quota ? v.quota.value.bytes / GiB : 0), 0);
    ALLOCATED.set(pool, sum);
  }
  return sum;
}
const ALLOCATED = new WeakMap<ManifestPool, number>();

/**
 * An edit that inserts `key: value` as a new line after a block-style sibling (same indentation),
 * or undefined when the sibling is not alone on its line (flow style) or spans several lines.
 */
export function insertAfterSibling(
  source: SourceText,
  sibling: Located<unknown> | undefined,
  key: string,
  value: string,
): SpanEdit | undefined {
  // Infrastructure code (values with a `rewrite`) is not YAML: no `key: value` lines there.
  if (!sibling || !sibling.editSpan || sibling.rewrite) return undefined;
  const keyPos = source.positionAt(sibling.keySpan.start);
  const valueEnd = source.positionAt(sibling.span.end);
  if (keyPos.line !== valueEnd.line) return undefined;
  const before = source.lineText(keyPos.line).slice(0, keyPos.character);
  if (!/^\s*(-\s+)?$/.test(before)) return undefined;
  if (source.lineText(keyPos.line).slice(valueEnd.character).includes('}')) return undefined;
  const next = source.lineStart(keyPos.line + 1);
  const atEnd = keyPos.line + 1 >= source.lineCount;
  const indent = ' '.repeat(keyPos.character);
  return atEnd
    ? {
        span: { start: source.text.length, end: source.text.length },
        newText: `${source.eol}${indent}${key}: ${value}`,
      }
    : { span: { start: next, end: next }, newText: `${indent}${key}: ${value}${source.eol}` };
}

/** `Pool \`tools\`` at the start of a sentence. */
export function Named(kind: string, name: Located<string> | undefined): string {
  const text = named(kind, name);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A size for messages: `4,384 GiB` below a TiB multiple, `11.5 TiB` from one TiB up. */
export function sizeLabel(gib: number): string {
  if (gib % 1024 === 0) return `${formatNumber(gib / 1024)} TiB`;
  return gib >= 1024 ? formatSizeIn(gib * GiB, 'TiB') : `${formatNumber(gib)} GiB`;
}

/** Where a finding about a volume's cool access goes: the value, or the key when it is a settings block. */
export function coolAccessSpan(cool: ManifestCoolAccess): Span {
  return typeof cool.node.value === 'object' ? cool.node.keySpan : cool.node.span;
}

/**
 * A manifest rule's page example, in YAML: the pool items given, flagged and better, each placed in
 * an account, so the page shows something you can paste and test/unit/rule-examples.test.ts can lint.
 */
export function manifestExample(flagged: string, better: string): RuleExample {
  return { flagged: inAccount(flagged), better: inAccount(better), language: 'yaml' };
}

/** Pool items placed in an account: a complete manifest. */
function inAccount(pools: string): string {
  const indented = pools
    .split('\n')
    .map((line) => (line.length > 0 ? `      ${line}` : line))
    .join('\n');
  return `accounts:\n  - name: eda-prod\n    pools:\n${indented}`;
}
