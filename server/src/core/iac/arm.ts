import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { annotationFor, IAC_SYNTAX_CODE } from './common';
import type { IacAccount, IacEstate, IacPool, IacRef, IacSlip, IacVolume } from './estate';
import { armGroupVolumes, armPool, armVolume, common, decimalSlip, lastSegment, poolFromId, segment, str, type Field, type Meta, type Obj } from './fields';

/**
 * ARM templates (`resources`, nested child `resources`, `parameters` defaults and `variables`)
 * and the JSON `az netappfiles account|pool|volume show/list` prints (one object or a list; the
 * properties flattened or under `properties`). Template expressions other than
 * `[parameters('x')]` and `[variables('x')]` stay unknown.
 */
const MAX_SYNTAX_PROBLEMS = 20; // not a fact: bound on reported JSON errors
const EXPRESSION = /^\[(?!\[)(.*)\]$/s;
const PARAM_OR_VAR = /^\s*(parameters|variables)\(\s*'([^']*)'\s*\)\s*$/;

export function readArmJson(source: SourceText, problems: ParseProblem[], language: 'arm' | 'az-cli'): IacEstate {
  const errors: ParseError[] = [];
  const root = parseTree(source.text, errors, { allowTrailingComma: true, disallowComments: false });
  for (const e of errors.slice(0, MAX_SYNTAX_PROBLEMS)) {
    const start = Math.min(e.offset, source.text.length);
    problems.push({ code: IAC_SYNTAX_CODE, span: { start, end: Math.min(source.text.length, start + Math.max(1, e.length)) }, message: `JSON syntax: ${printParseErrorCode(e.error)}. anf-lint reads what it can around it.` });
  }
  const reader = new ArmReader(source, root, language);
  return reader.estate();
}

function spanOf(n: JsonNode): Span {
  return { start: n.offset, end: n.offset + n.length };
}

class ArmReader {
  private readonly accounts: IacAccount[] = [];
  private readonly pools: IacPool[] = [];
  private readonly volumes: IacVolume[] = [];
  private readonly slips: IacSlip[] = [];

  constructor(
    private readonly source: SourceText,
    private readonly root: JsonNode | undefined,
    private readonly language: 'arm' | 'az-cli',
  ) {}

  estate(): IacEstate {
    if (this.root) {
      if (this.language === 'arm') {
        const resources = findNodeAtLocation(this.root, ['resources']);
        for (const r of resources?.children ?? []) this.resource(r, undefined, undefined);
      } else {
        const items = this.root.type === 'array' ? this.root.children ?? [] : [this.root];
        for (const item of items) this.resource(item, undefined, undefined);
      }
    }
    return { language: this.language, accounts: this.accounts, pools: this.pools, volumes: this.volumes, slips: this.slips };
  }

  private resource(node: JsonNode, parentType: string | undefined, parentName: string | undefined): void {
    if (node.type !== 'object') return;
    const obj = this.obj(node);
    const typeText = str(obj.field('type'))?.value ?? '';
    // A child's type and name are relative to its parent's (`capacityPools`, `pool/volume` under an account).
    const type = parentType && !/^microsoft\./i.test(typeText) ? `${parentType}/${typeText}` : typeText;
    const lower = type.toLowerCase();
    const fullName = str(obj.field('name'));
    const qualified = parentName !== undefined && fullName?.value !== undefined && !fullName.value.startsWith(`${parentName}/`) ? `${parentName}/${fullName.value}` : fullName?.value;
    const qualifiedName = fullName && qualified !== undefined ? { ...fullName, value: qualified } : fullName;
    const name = lastSegment(qualifiedName);
    const api = str(obj.field('apiVersion'));
    const annotation = annotationFor(this.source, spanOf(node));
    const tags = obj.field('tags');
    const meta: Meta = {
      symbol: qualified ?? `${type}@${node.offset}`,
      span: spanOf(node),
      headSpan: fullName?.span ?? { start: node.offset, end: node.offset + 1 },
      repeated: obj.field('copy') !== undefined,
      ...(name ? { name } : {}),
      ...(api ? { apiVersion: api } : {}),
      ...(annotation ? { annotation } : {}),
      ...(tags ? { tags } : {}),
    };
    // az output flattens the properties onto the resource; templates keep them under `properties`.
    const props = obj.field('properties')?.object ?? (this.language === 'az-cli' ? obj : undefined);
    if (lower === 'microsoft.netapp/netappaccounts') this.accounts.push({ kind: 'account', ...common(meta) });
    else if (lower === 'microsoft.netapp/netappaccounts/capacitypools') {
      const account = segment(qualifiedName, 0);
      const slip = decimalSlip(props?.field('size'), 'The pool size');
      if (slip) this.slips.push(slip);
      this.pools.push(armPool({ ...meta, ...(account ? { account: { name: account } } : {}) }, props));
    } else if (lower === 'microsoft.netapp/netappaccounts/capacitypools/volumes') {
      const account = segment(qualifiedName, 0);
      const pool = segment(qualifiedName, 1);
      const slip = decimalSlip(props?.field('usageThreshold'), 'The volume quota (`usageThreshold`)');
      if (slip) this.slips.push(slip);
      const mountTargets = (props?.field('mountTargets')?.items ?? []).flatMap((t) => {
        const ip = t.object?.field('ipAddress')?.value;
        return typeof ip === 'string' ? [ip] : [];
      });
      const zones = obj.field('zones');
      this.volumes.push(
        armVolume({ ...meta, ...(account ? { account: { name: account } } : {}), ...(pool ? { pool: { name: pool } } : {}) }, props, { ...(zones ? { zones } : {}), mountTargets }),
      );
    }
    else if (lower === 'microsoft.netapp/netappaccounts/volumegroups') {
      const account = segment(qualifiedName, 0);
      for (const item of props?.field('volumes')?.items ?? []) {
        const slip = decimalSlip(item.object?.field('properties')?.object?.field('usageThreshold'), 'The volume quota (`usageThreshold`)');
        if (slip) this.slips.push(slip);
      }
      this.volumes.push(...armGroupVolumes({ ...meta, ...(account ? { account: { name: account } } : {}) }, props, (f) => poolFromId(f) ?? this.poolFromResourceId(f), (span) => annotationFor(this.source, span)));
    }
    const children = findNodeAtLocation(node, ['resources']);
    for (const child of children?.children ?? []) this.resource(child, type, qualified);
  }

  /**
   * `[resourceId('Microsoft.NetApp/netAppAccounts/capacityPools', <account>, <pool>)]`: the pool's
   * name, when its argument is a literal or a `parameters()`/`variables()` with a known value.
   */
  private poolFromResourceId(f: Field | undefined): IacRef | undefined {
    if (!f || this.language !== 'arm') return undefined;
    const m = /^\[\s*resourceId\(\s*'Microsoft\.NetApp\/netAppAccounts\/capacityPools'\s*,.*,\s*(.+?)\s*\)\s*\]$/is.exec(f.raw.slice(1, -1));
    if (!m) return undefined;
    const arg = m[1]!;
    const literal = /^'([^']*)'$/.exec(arg);
    let name: string | undefined = literal?.[1];
    const pv = PARAM_OR_VAR.exec(arg);
    if (!name && pv && this.root) {
      const target = pv[1] === 'parameters' ? findNodeAtLocation(this.root, ['parameters', pv[2]!, 'defaultValue']) : findNodeAtLocation(this.root, ['variables', pv[2]!]);
      const t = target ? this.deref(target) : undefined;
      const v = t ? this.value(t) : undefined;
      if (typeof v === 'string') name = v;
    }
    return name !== undefined ? { name: { value: name, span: f.span, keySpan: f.keySpan, raw: f.raw } } : undefined;
  }

  private obj(node: JsonNode): Obj {
    const props = new Map<string, JsonNode>();
    for (const p of node.children ?? []) {
      const key = p.children?.[0];
      if (key && typeof key.value === 'string') props.set(key.value.toLowerCase(), p);
    }
    return {
      span: spanOf(node),
      field: (key) => {
        const p = props.get(key.toLowerCase());
        const value = p?.children?.[1];
        return p && value ? this.field(value, spanOf(p.children![0]!)) : undefined;
      },
      blocks: () => [],
    };
  }

  private field(node: JsonNode, keySpan: Span): Field {
    const target = this.deref(node);
    const literal = target === node;
    const value = target ? this.value(target) : undefined;
    const items = target?.type === 'array' ? (target.children ?? []).map((c) => this.field(c, spanOf(c))) : undefined;
    return {
      value,
      span: spanOf(node),
      keySpan,
      raw: this.source.text.slice(node.offset, node.offset + node.length),
      ...(literal && (node.type === 'number' || node.type === 'boolean') ? { editSpan: spanOf(node) } : {}),
      ...(literal && node.type === 'string' ? { editSpan: { start: node.offset + 1, end: node.offset + node.length - 1 } } : {}),
      ...(target?.type === 'object' ? { object: this.obj(target) } : {}),
      ...(items ? { items } : {}),
    };
  }

  /** `[parameters('x')]` -> the default value's node, `[variables('x')]` -> the variable's; other expressions: undefined. */
  private deref(node: JsonNode, depth = 0): JsonNode | undefined {
    if (node.type !== 'string' || typeof node.value !== 'string' || this.language !== 'arm') return node;
    const expr = EXPRESSION.exec(node.value);
    if (!expr) return node;
    const m = PARAM_OR_VAR.exec(expr[1]!);
    if (!m || !this.root || depth > MAX_SYNTAX_PROBLEMS) return undefined;
    const target = m[1] === 'parameters' ? findNodeAtLocation(this.root, ['parameters', m[2]!, 'defaultValue']) : findNodeAtLocation(this.root, ['variables', m[2]!]);
    return target ? this.deref(target, depth + 1) : undefined;
  }

  private value(node: JsonNode): unknown {
    if (node.type === 'string' && typeof node.value === 'string' && this.language === 'arm' && EXPRESSION.test(node.value)) return undefined;
    if (node.type === 'array') {
      const items = (node.children ?? []).map((c) => {
        const t = this.deref(c);
        return t ? this.value(t) : undefined;
      });
      return items.some((i) => i === undefined) ? undefined : items;
    }
    return getNodeValue(node);
  }
}
