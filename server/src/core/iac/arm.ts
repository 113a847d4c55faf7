import { findNodeAtLocation, getNodeValue, parseTree, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { annotationFor, jsonSyntaxProblems } from './common';
import type { IacAccount, IacEstate, IacPool, IacSlip, IacVolume } from './estate';
import {
  armGroupVolumes,
  armPool,
  armVolume,
  common,
  decimalSlip,
  deployedOnlyIf,
  lastSegment,
  poolFromId,
  segment,
  str,
  type Field,
  type Meta,
  type Obj,
} from './fields';
import {
  copyLoop,
  countOf,
  evaluateNode,
  nameSegments,
  isPropertyCopy,
  TemplateScope,
  withCopyIndex,
  withUnknownCopyIndex,
  type ArmScope,
  type GivenParameter,
  type UndeclaredUse,
} from './arm/evaluate';
import { armSubnet, armVnetSubnets, type IacSubnet } from './subnets';
import { Budget, firstUnknown, isPlainObject, isUnknown, propertyOf, Unknown } from './values';

/**
 * ARM templates and the JSON `az netappfiles account|pool|volume show/list` prints (one object or a
 * list; the properties flattened or under `properties`). Templates are evaluated (arm/evaluate.ts):
 * parameters (a parameters file's values, else defaults), variables, functions, `copy` loops (one
 * instance per index), `condition`, nested child `resources`, and nested deployments with an
 * inline `template`. This file maps what the evaluation gives to accounts, pools and volumes.
 */
const MAX_SYNTAX_PROBLEMS = 20; // not a fact: bound on reported JSON errors
/** How deep nested deployments (a deployment whose template deploys a deployment) are followed. */
const MAX_DEPLOYMENT_DEPTH = 8; // not a fact: bound on work
/** A parameter the template does not declare (a parameters file's key, `parameters('x')`): ANF421. */
export const UNDECLARED_PARAMETER_CODE = 'ANF421';
/** Where reading stopped on the work budget: ANF422. */
export const EVALUATION_STOPPED_CODE = 'ANF422';

/** What the workspace knows beside the template: its parameters file's values. */
export interface ArmContext {
  readonly parameters?: ReadonlyMap<string, GivenParameter>;
  /** Why a parameter without a default and without a given value has none (for the unknown's reason). */
  readonly missingHint?: string;
  readonly budget?: Budget;
}

export function readArmJson(
  source: SourceText,
  problems: ParseProblem[],
  language: 'arm' | 'az-cli',
  context: ArmContext = {},
): IacEstate {
  const errors: ParseError[] = [];
  const root = parseTree(source.text, errors, { allowTrailingComma: true, disallowComments: false });
  jsonSyntaxProblems(source, errors.slice(0, MAX_SYNTAX_PROBLEMS), problems);
  const reader = new ArmReader(source, root, language, context, problems);
  return reader.estate();
}

function spanOf(n: JsonNode): Span {
  return { start: n.offset, end: n.offset + n.length };
}

/** One resource to read: its node, the scope its expressions evaluate in, and its parent's type and name. */
interface Pending {
  readonly node: JsonNode;
  readonly scope: ArmScope | undefined;
  readonly parentType?: string;
  readonly parentName?: string;
  /** Where it is declared (`resources[2].resources[0]`), for display when its name is unknown. */
  readonly address: string;
  readonly depth: number;
  readonly repeated: boolean;
  /** A parent (or a nested deployment) deployed only if a condition anf-lint could not evaluate holds: so is this. */
  readonly deployedIf?: string;
}

class ArmReader {
  private readonly accounts: IacAccount[] = [];
  private readonly pools: IacPool[] = [];
  private readonly volumes: IacVolume[] = [];
  private readonly slips: IacSlip[] = [];
  private readonly subnets: IacSubnet[] = [];
  private readonly budget: Budget;
  private readonly undeclaredAt = new Set<number>();

  constructor(
    private readonly source: SourceText,
    private readonly root: JsonNode | undefined,
    private readonly language: 'arm' | 'az-cli',
    private readonly context: ArmContext,
    private readonly problems: ParseProblem[],
  ) {
    this.budget = context.budget ?? new Budget();
  }

  estate(): IacEstate {
    const pending: Pending[] = [];
    if (this.root) {
      if (this.language === 'arm') {
        const scope = this.templateScope(this.root, this.context.parameters ?? new Map(), this.context.missingHint);
        pending.push(...this.resourcesOf(this.root, scope, undefined, undefined, '', 0, false));
      } else {
        const items = this.root.type === 'array' ? (this.root.children ?? []) : [this.root];
        items.forEach((item, i) =>
          pending.push({ node: item, scope: undefined, address: `[${i}]`, depth: 0, repeated: false }),
        );
      }
    }
    // Iterative: nested `resources` and deployments are input, not a bound of our stack.
    while (pending.length > 0) {
      const next = pending.shift()!;
      if (this.budget.stopped) break;
      this.resource(next, pending);
    }
    if (this.budget.stopped) {
      this.problems.push({
        code: EVALUATION_STOPPED_CODE,
        severity: 'info',
        span: { start: 0, end: 0 },
        message: `anf-lint stopped reading this template after ${this.budget.stopped}: resources past that point are not read, and values it had not evaluated are unknown. This is a bound on anf-lint's work, not a problem of the template.`,
      });
    }
    return {
      language: this.language,
      accounts: this.accounts,
      pools: this.pools,
      volumes: this.volumes,
      slips: this.slips,
      ...(this.subnets.length > 0 ? { subnets: this.subnets } : {}),
    };
  }

  private templateScope(
    template: JsonNode,
    given: ReadonlyMap<string, GivenParameter>,
    hint: string | undefined,
  ): TemplateScope {
    return new TemplateScope(template, given, this.budget, (use) => this.reportUndeclared(use), hint);
  }

  private reportUndeclared(use: UndeclaredUse): void {
    if (this.undeclaredAt.has(use.span.start)) return;
    this.undeclaredAt.add(use.span.start);
    this.problems.push({
      code: UNDECLARED_PARAMETER_CODE,
      span: use.span,
      message: `\`parameters('${use.name}')\` names a parameter the template does not declare: Azure rejects the deployment. Declare \`${use.name}\` under \`parameters\` or fix the name.`,
    });
  }

  /** The resources of a template (`resources` as an array, or as an object of symbolic names: languageVersion 2.0). */
  private resourcesOf(
    template: JsonNode,
    scope: ArmScope,
    parentType: string | undefined,
    parentName: string | undefined,
    prefix: string,
    depth: number,
    repeated: boolean,
  ): Pending[] {
    const resources = findNodeAtLocation(template, ['resources']);
    if (!resources) return [];
    const entries: [string, JsonNode][] =
      resources.type === 'array'
        ? (resources.children ?? []).map((c, i) => [`${prefix}resources[${i}]`, c])
        : (resources.children ?? []).flatMap((p) =>
            p.children?.[0] && p.children[1]
              ? [[`${prefix}resources.${String(p.children[0].value)}`, p.children[1]] as [string, JsonNode]]
              : [],
          );
    return entries.map(([address, node]) => ({
      node,
      scope,
      ...(parentType ? { parentType } : {}),
      ...(parentName !== undefined ? { parentName } : {}),
      address,
      depth,
      repeated,
    }));
  }

  private resource(at: Pending, pending: Pending[]): void {
    const { node } = at;
    if (node.type !== 'object') return;
    if (!at.scope) return this.instance(at, undefined, at.address, at.repeated, pending);
    // `existing: true` (languageVersion 2.0): a resource this template names but does not deploy.
    if (getNodeValue(findNodeAtLocation(node, ['existing']) ?? ({ type: 'null' } as JsonNode)) === true) return;
    const copy = findNodeAtLocation(node, ['copy']);
    if (copy?.type === 'object') {
      const nameNode = findNodeAtLocation(copy, ['name']);
      const loopName = typeof nameNode?.value === 'string' ? nameNode.value : '';
      const countNode = findNodeAtLocation(copy, ['count']);
      const count = countNode ? evaluateNode(countNode, at.scope) : new Unknown('the copy loop has no `count`');
      const known = countOf(count);
      if (known.count === undefined) {
        // How many is unknown: read once, as repeated, `copyIndex()` unknown.
        this.instance(
          at,
          withUnknownCopyIndex(at.scope, loopName, known.unknown!),
          `${at.address} (copy '${loopName}')`,
          true,
          pending,
        );
        return;
      }
      if (!this.budget.instance(known.count)) return;
      for (let i = 0; i < known.count; i++)
        this.instance(at, withCopyIndex(at.scope, loopName, i), `${at.address}[copyIndex ${i}]`, at.repeated, pending);
      return;
    }
    if (!this.budget.instance()) return;
    this.instance(at, at.scope, at.address, at.repeated, pending);
  }

  private instance(
    at: Pending,
    scope: ArmScope | undefined,
    address: string,
    repeated: boolean,
    pending: Pending[],
  ): void {
    const { node } = at;
    const obj = this.obj(node, scope);
    let deployedIf = at.deployedIf;
    if (scope) {
      const condition = obj.field('condition');
      // A false condition deploys nothing; an unknown one is read as deployed, and says so.
      if (condition && condition.value === false) return;
      if (condition && condition.value === undefined)
        deployedIf = deployedOnlyIf(condition.raw.replace(/^"|"$/g, ''), condition.unknown);
    }
    const typeText = typeof obj.field('type')?.value === 'string' ? (obj.field('type')!.value as string) : '';
    // A child's type and name are relative to its parent's (`capacityPools`, `pool/volume` under an account).
    const type = at.parentType && !/^microsoft\./i.test(typeText) ? `${at.parentType}/${typeText}` : typeText;
    const lower = type.toLowerCase();
    const fullName = str(obj.field('name'));
    const qualified =
      at.parentName !== undefined && fullName?.value !== undefined && !fullName.value.startsWith(`${at.parentName}/`)
        ? `${at.parentName}/${fullName.value}`
        : fullName?.value;
    const qualifiedName = fullName && qualified !== undefined ? { ...fullName, value: qualified } : fullName;
    if (lower === 'microsoft.resources/deployments')
      return this.deployment(
        obj,
        node,
        scope,
        address,
        { ...at, ...(deployedIf ? { deployedIf } : {}) },
        repeated,
        pending,
      );
    const name = lastSegment(qualifiedName);
    const api = str(obj.field('apiVersion'));
    const annotation = annotationFor(this.source, spanOf(node));
    const tags = obj.field('tags');
    const meta: Meta = {
      symbol: qualified ?? address,
      address,
      span: spanOf(node),
      headSpan: obj.field('name')?.span ?? { start: node.offset, end: node.offset + 1 },
      repeated,
      ...(name ? { name } : {}),
      ...(api ? { apiVersion: api } : {}),
      ...(annotation ? { annotation } : {}),
      ...(tags ? { tags } : {}),
      ...(deployedIf ? { deployedIf } : {}),
    };
    // az output flattens the properties onto the resource; templates keep them under `properties`.
    const props = obj.field('properties')?.object ?? (this.language === 'az-cli' ? obj : undefined);
    // A name whose last part is unknown (`format('{0}/{1}', variables('pool'), uniqueString(...))`) still names its parents.
    const nameNode = findNodeAtLocation(node, ['name']);
    const parts =
      scope && qualifiedName && qualifiedName.value === undefined && typeof nameNode?.value === 'string'
        ? nameSegments(nameNode.value, scope)
        : undefined;
    const parentSegment = (i: number) => {
      const known = segment(qualifiedName, i);
      if (known || !qualifiedName) return known ?? this.unknownSegment(qualifiedName, i);
      const part = at.parentName === undefined ? parts?.[i] : undefined;
      const { unknown: _unknown, ...rest } = qualifiedName;
      return typeof part === 'string' ? { ...rest, value: part } : this.unknownSegment(qualifiedName, i);
    };
    if (lower === 'microsoft.netapp/netappaccounts') this.accounts.push({ kind: 'account', ...common(meta) });
    else if (lower === 'microsoft.network/virtualnetworks') this.subnets.push(...armVnetSubnets(meta, props));
    else if (lower === 'microsoft.network/virtualnetworks/subnets')
      this.subnets.push(armSubnet(meta, props, parentSegment(0)));
    else if (lower === 'microsoft.netapp/netappaccounts/capacitypools') {
      const account = parentSegment(0);
      const slip = decimalSlip(props?.field('size'), 'The pool size');
      if (slip) this.slips.push(slip);
      this.pools.push(armPool({ ...meta, ...(account ? { account: { name: account } } : {}) }, props));
    } else if (lower === 'microsoft.netapp/netappaccounts/capacitypools/volumes') {
      const account = parentSegment(0);
      const pool = parentSegment(1);
      const slip = decimalSlip(props?.field('usageThreshold'), 'The volume quota (`usageThreshold`)');
      if (slip) this.slips.push(slip);
      const mountTargets = (props?.field('mountTargets')?.items ?? []).flatMap((t) => {
        const ip = t.object?.field('ipAddress')?.value;
        return typeof ip === 'string' ? [ip] : [];
      });
      const zones = obj.field('zones');
      this.volumes.push(
        armVolume(
          { ...meta, ...(account ? { account: { name: account } } : {}), ...(pool ? { pool: { name: pool } } : {}) },
          props,
          { ...(zones ? { zones } : {}), mountTargets },
        ),
      );
    } else if (lower === 'microsoft.netapp/netappaccounts/volumegroups') {
      const account = parentSegment(0);
      for (const item of props?.field('volumes')?.items ?? []) {
        const slip = decimalSlip(
          item.object?.field('properties')?.object?.field('usageThreshold'),
          'The volume quota (`usageThreshold`)',
        );
        if (slip) this.slips.push(slip);
      }
      this.volumes.push(
        ...armGroupVolumes(
          { ...meta, ...(account ? { account: { name: account } } : {}) },
          props,
          (f) => poolFromId(f),
          (span) => annotationFor(this.source, span),
        ),
      );
    }
    const children = findNodeAtLocation(node, ['resources']);
    if (children?.type === 'array') {
      (children.children ?? []).forEach((child, i) =>
        pending.push({
          node: child,
          scope,
          parentType: type,
          ...(qualified !== undefined ? { parentName: qualified } : {}),
          address: `${address}.resources[${i}]`,
          depth: at.depth,
          repeated,
          ...(deployedIf ? { deployedIf } : {}),
        }),
      );
    }
  }

  /** A segment of a name that is unknown: the parent it names is unknown too, and says why. */
  private unknownSegment(name: ReturnType<typeof str>, _index: number): ReturnType<typeof str> {
    return name && name.value === undefined && name.unknown ? { ...name } : undefined;
  }

  /**
   * `Microsoft.Resources/deployments` with an inline `properties.template`: its resources are read,
   * their expressions evaluated in the template's own scope (`expressionEvaluationOptions.scope`
   * `inner`: its `parameters` as the deployment passes them) or in this one (`outer`, the default).
   * A `templateLink` names a file anf-lint does not follow.
   */
  private deployment(
    obj: Obj,
    node: JsonNode,
    scope: ArmScope | undefined,
    address: string,
    at: Pending,
    repeated: boolean,
    pending: Pending[],
  ): void {
    if (!scope || at.depth >= MAX_DEPLOYMENT_DEPTH) return;
    const template = findNodeAtLocation(node, ['properties', 'template']);
    if (!template || template.type !== 'object') return;
    const evaluation = findNodeAtLocation(node, ['properties', 'expressionEvaluationOptions', 'scope']);
    const inner = typeof evaluation?.value === 'string' && evaluation.value.toLowerCase() === 'inner';
    let innerScope: ArmScope = scope;
    if (inner) {
      const given = new Map<string, GivenParameter>();
      const name = obj.field('name')?.value;
      const label = typeof name === 'string' ? `deployment \`${name}\`` : `the deployment at ${address}`;
      for (const p of findNodeAtLocation(node, ['properties', 'parameters'])?.children ?? []) {
        const [k, v] = p.children ?? [];
        if (!k || !v) continue;
        const valueNode = findNodeAtLocation(v, ['value']);
        const value = valueNode
          ? evaluateNode(valueNode, scope)
          : new Unknown(`${label} passes \`${String(k.value)}\` as a Key Vault reference`);
        given.set(String(k.value).toLowerCase(), { value, from: `${label}'s \`parameters\`` });
      }
      const hint = `no default and ${label} does not pass it`;
      const nested = this.templateScope(template, given, hint);
      innerScope = nested;
    }
    const nested = this.resourcesOf(
      template,
      innerScope,
      undefined,
      undefined,
      `${address}.properties.template.`,
      at.depth + 1,
      repeated,
    );
    pending.push(...(at.deployedIf ? nested.map((p) => ({ ...p, deployedIf: at.deployedIf })) : nested));
  }

  // ---- fields ----------------------------------------------------------------------------

  /** A template object's properties, evaluated in `scope` (undefined: az output, read as written). */
  private obj(node: JsonNode, scope: ArmScope | undefined): Obj {
    const props = new Map<string, JsonNode>();
    const names: string[] = [];
    const copies = new Map<string, { entry: JsonNode; keySpan: Span }>();
    for (const p of node.children ?? []) {
      const key = p.children?.[0];
      if (!key || typeof key.value !== 'string') continue;
      const value = p.children?.[1];
      if (scope && key.value === 'copy' && value?.type === 'array' && isPropertyCopy(value)) {
        // Property iteration: `"copy": [{ "name": "rules", "count": 3, "input": {...} }]`.
        for (const entry of value.children ?? []) {
          const n = findNodeAtLocation(entry, ['name']);
          if (typeof n?.value === 'string') {
            copies.set(n.value.toLowerCase(), { entry, keySpan: spanOf(n) });
            names.push(n.value);
          }
        }
        continue;
      }
      props.set(key.value.toLowerCase(), p);
      names.push(key.value);
    }
    return {
      span: spanOf(node),
      keys: () => names,
      field: (key) => {
        const copy = copies.get(key.toLowerCase());
        if (copy && scope) return this.copyField(copy.entry, copy.keySpan, scope);
        const p = props.get(key.toLowerCase());
        const value = p?.children?.[1];
        return p && value ? this.field(value, spanOf(p.children![0]!), scope) : undefined;
      },
      blocks: () => [],
    };
  }

  /** A property made by a `copy` entry: one item per index, `copyIndex('<name>')` bound in each. */
  private copyField(entry: JsonNode, keySpan: Span, scope: ArmScope): Field {
    const loop = copyLoop(entry, scope);
    const span = spanOf(entry);
    const raw = this.source.text.slice(span.start, span.end);
    if (!loop || loop.count === undefined)
      return { value: undefined, span, keySpan, raw, unknown: loop?.unknown.reason ?? 'the copy loop is not read' };
    const items = Array.from({ length: loop.count }, (_, i) =>
      this.field(loop.input, spanOf(loop.input), withCopyIndex(scope, loop.name, i)),
    );
    const unknown = items.find((i) => i.value === undefined);
    return {
      value: unknown ? undefined : items.map((i) => i.value),
      span,
      keySpan,
      raw,
      items,
      ...(unknown?.unknown ? { unknown: unknown.unknown } : {}),
    };
  }

  private field(node: JsonNode, keySpan: Span, scope: ArmScope | undefined): Field {
    const raw = this.source.text.slice(node.offset, node.offset + node.length);
    const span = spanOf(node);
    if (!scope) {
      const value = getNodeValue(node) as unknown;
      return {
        value,
        span,
        keySpan,
        raw,
        ...(node.type === 'number' || node.type === 'boolean' ? { editSpan: span } : {}),
        ...(node.type === 'string' ? { editSpan: { start: node.offset + 1, end: node.offset + node.length - 1 } } : {}),
        ...(node.type === 'object' ? { object: this.obj(node, undefined) } : {}),
        ...(node.type === 'array'
          ? { items: (node.children ?? []).map((c) => this.field(c, spanOf(c), undefined)) }
          : {}),
      };
    }
    scope.trace = new Map();
    const evaluated = evaluateNode(node, scope);
    const trace = scope.trace;
    scope.trace = undefined;
    const expression =
      node.type === 'string' &&
      typeof node.value === 'string' &&
      node.value.startsWith('[') &&
      !node.value.startsWith('[[') &&
      node.value.endsWith(']');
    const literal = !expression;
    const origin = originOf(trace);
    if (node.type === 'object' || node.type === 'array') {
      const made = plain(evaluated, span, keySpan, raw);
      return {
        ...made,
        ...(origin ? { origin } : {}),
        ...(node.type === 'object' ? { object: this.obj(node, scope) } : {}),
        ...(node.type === 'array' ? { items: (node.children ?? []).map((c) => this.field(c, spanOf(c), scope)) } : {}),
      };
    }
    const made = plain(evaluated, span, keySpan, raw);
    return {
      ...made,
      ...(origin ? { origin } : {}),
      ...(literal && (node.type === 'number' || node.type === 'boolean') ? { editSpan: span } : {}),
      ...(literal && node.type === 'string'
        ? { editSpan: { start: node.offset + 1, end: node.offset + node.length - 1 } }
        : {}),
    };
  }
}

/** "`parameters('poolSize')` from main.parameters.json line 5": parameters given from outside. */
function originOf(trace: ReadonlyMap<string, string | undefined> | undefined): string | undefined {
  const given = [...(trace ?? [])].filter(([, from]) => from !== undefined);
  return given.length > 0
    ? given.map(([name, from]) => `\`parameters('${name}')\` from ${from}`).join('; ')
    : undefined;
}

/** A field over an evaluated value (an expression that gives an object, an array, a number ...). */
function plain(value: unknown, span: Span, keySpan: Span, raw: string): Field {
  const unknown = firstUnknown(value);
  const object: Obj | undefined = isPlainObject(value)
    ? {
        span,
        keys: () => Object.keys(value),
        field: (key) => {
          const v = propertyOf(value, key);
          return v === undefined ? undefined : plain(v, span, keySpan, raw);
        },
        blocks: () => [],
      }
    : undefined;
  const items = Array.isArray(value) ? value.map((v) => plain(v, span, span, raw)) : undefined;
  return {
    value: unknown ? undefined : value === null ? undefined : value,
    span,
    keySpan,
    raw,
    ...(unknown ? { unknown: unknown.reason } : isUnknown(value) ? { unknown: (value as Unknown).reason } : {}),
    ...(object ? { object } : {}),
    ...(items ? { items } : {}),
  };
}
