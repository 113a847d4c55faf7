import { findNodeAtLocation, getNodeValue, parseTree, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { annotationFor, jsonSyntaxProblems } from './common';
import type { IacAccount, IacEstate, IacModuleCall, IacPool, IacSlip, IacVolume } from './estate';
import { placeInstance, relativeUri } from './instance';
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
  evaluateExpr,
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
import { classifyArmString, type ArmExpr } from './arm/expressions';
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
  /** The template's own URI: a `templateLink.relativePath` is relative to it. */
  readonly uri?: string;
  /**
   * The text the workspace holds for another file (a linked template), when the workspace reads the
   * template with its links (workspace/armLinks.ts); without it linked templates are recorded, not read.
   */
  readonly text?: (uri: string) => SourceText | undefined;
  /** The templates being read (this one's linking parents): a link back to one of them is not followed. */
  readonly stack?: readonly string[];
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
  /** Nested deployments with a `templateLink`, for the workspace (which files this one links) and the hover. */
  private readonly calls: IacModuleCall[] = [];

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
      ...(this.calls.length > 0 ? { calls: this.calls } : {}),
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
   * A `templateLink` is followed when it names a file of the repository (`linked`).
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
    if (!template || template.type !== 'object') {
      const link = findNodeAtLocation(node, ['properties', 'templateLink']);
      if (link?.type === 'object') this.linked(obj, node, link, scope, address, at, repeated);
      return;
    }
    const evaluation = findNodeAtLocation(node, ['properties', 'expressionEvaluationOptions', 'scope']);
    const inner = typeof evaluation?.value === 'string' && evaluation.value.toLowerCase() === 'inner';
    let innerScope: ArmScope = scope;
    if (inner) {
      const { given, hint } = this.passedParameters(obj, node, scope, address);
      innerScope = this.templateScope(template, given, hint);
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

  /** The `parameters` a deployment passes to its template (inner scope or linked), evaluated here. */
  private passedParameters(
    obj: Obj,
    node: JsonNode,
    scope: ArmScope,
    address: string,
  ): { given: Map<string, GivenParameter>; hint: string } {
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
    const parametersLink = findNodeAtLocation(node, ['properties', 'parametersLink']);
    const hint = parametersLink
      ? `${label} takes its parameters from a \`parametersLink\` anf-lint does not follow`
      : `no default and ${label} does not pass it`;
    return { given, hint };
  }

  /**
   * Whether parameter `name` of this template is its own link: declared with the default
   * `[deployment().properties.templateLink.uri]` (the quickstart `_artifactsLocation`) and given no
   * other value (a parameters file's URL is a URL, not this file).
   */
  private ownLinkParameter(name: string): boolean {
    if (!this.root || this.context.parameters?.has(name.toLowerCase())) return false;
    for (const p of findNodeAtLocation(this.root, ['parameters'])?.children ?? []) {
      const [k, v] = p.children ?? [];
      if (!k || !v || String(k.value).toLowerCase() !== name.toLowerCase()) continue;
      const d = findNodeAtLocation(v, ['defaultValue'])?.value;
      return (
        typeof d === 'string' && d.replace(/\s+/g, '').toLowerCase() === '[deployment().properties.templatelink.uri]'
      );
    }
    return false;
  }

  /**
   * A deployment whose `templateLink` names a file of the repository: `relativePath` (relative to
   * this template's file, as Azure resolves it from the template spec or the parent's URI), or a
   * `uri` built as `uri(deployment().properties.templateLink.uri, 'nested/x.json')` (relative to
   * this template's own link, which is this file). Its resources are this deployment's instances,
   * placed at the deployment (as a Bicep module's are at the declaration); the linked file itself
   * is then read as called (workspace/armLinks.ts). Any other URI (a storage account, a GitHub raw
   * URL, a template spec `id`) is recorded with the reason it is not read.
   */
  private linked(
    obj: Obj,
    node: JsonNode,
    link: JsonNode,
    scope: ArmScope,
    address: string,
    at: Pending,
    repeated: boolean,
  ): void {
    const target = linkTarget(link, scope, (name) => this.ownLinkParameter(name));
    const nameField = obj.field('name');
    const name = typeof nameField?.value === 'string' ? nameField.value : address;
    const sourceNode =
      findNodeAtLocation(link, ['relativePath']) ??
      findNodeAtLocation(link, ['uri']) ??
      findNodeAtLocation(link, ['id']);
    const linkKey = link.parent?.children?.[0];
    const headSpan = linkKey ? spanOf(linkKey) : spanOf(link);
    const call: IacModuleCall = {
      name,
      ...(target.path !== undefined ? { source: target.path } : {}),
      local: target.path !== undefined,
      span: spanOf(node),
      headSpan,
      ...(sourceNode ? { sourceSpan: spanOf(sourceNode) } : {}),
      repeated,
      ...(target.unknown !== undefined ? { unread: target.unknown } : {}),
    };
    this.calls.push(call);
    const { text, uri } = this.context;
    if (target.path === undefined || !text || !uri) return;
    const linkedUri = linkedTemplateUri(uri, target.path);
    const stack = this.context.stack ?? [uri];
    if (!linkedUri || stack.includes(linkedUri) || stack.length > MAX_DEPLOYMENT_DEPTH) return;
    const source = text(linkedUri);
    if (!source || !this.budget.instance()) return;
    const { given, hint } = this.passedParameters(obj, node, scope, address);
    const read = readArmJson(source, [], 'arm', {
      parameters: given,
      missingHint: hint,
      budget: this.budget,
      uri: linkedUri,
      text,
      stack: [...stack, linkedUri],
    });
    const place = {
      call,
      args: new Map(),
      source,
      where: relativeUri(uri.slice(0, uri.lastIndexOf('/') + 1), linkedUri),
    };
    const deployedIf = at.deployedIf;
    const placed = <T extends IacAccount | IacPool | IacVolume>(r: T): T => {
      const p = placeInstance(r, place);
      return deployedIf && !p.deployedIf ? { ...p, deployedIf } : p;
    };
    this.accounts.push(...read.accounts.map(placed));
    this.pools.push(...read.pools.map(placed));
    this.volumes.push(...read.volumes.map(placed));
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

/**
 * The repository path a `templateLink` names: `relativePath` evaluated, or the second argument of
 * `uri(deployment().properties.templateLink.uri, ...)`. Else why not.
 */
export function linkTarget(
  link: JsonNode,
  scope: ArmScope,
  ownLinkParameter: (name: string) => boolean = () => false,
): { path?: string; unknown?: string } {
  const relative = findNodeAtLocation(link, ['relativePath']);
  if (relative) {
    const value = evaluateNode(relative, scope);
    if (typeof value === 'string' && value !== '') return { path: value };
    return {
      unknown: isUnknown(value)
        ? `its \`relativePath\` is unknown: ${value.reason}`
        : 'its `relativePath` is not a string',
    };
  }
  if (findNodeAtLocation(link, ['id']))
    return { unknown: 'it deploys a template spec (`templateLink.id`), which is not in the repository' };
  const uriNode = findNodeAtLocation(link, ['uri']);
  if (!uriNode) return { unknown: 'its `templateLink` names neither `relativePath` nor `uri`' };
  if (typeof uriNode.value !== 'string') return { unknown: 'its `templateLink.uri` is not a string' };
  const parsed = classifyArmString(uriNode.value);
  if (parsed.kind === 'expression' && isOwnLinkUri(parsed.expr, ownLinkParameter)) {
    const relativeArg = parsed.expr.args[1];
    const value = relativeArg ? evaluateExpr(relativeArg, scope, 0) : undefined;
    if (typeof value === 'string' && value !== '') return { path: value };
    return {
      unknown: isUnknown(value)
        ? `the path in its \`templateLink.uri\` is unknown: ${value.reason}`
        : 'its `templateLink.uri` names no path',
    };
  }
  const value = evaluateNode(uriNode, scope);
  if (isUnknown(value)) return { unknown: `its \`templateLink.uri\` is unknown: ${value.reason}` };
  return {
    unknown: `its \`templateLink.uri\` (${String(value)}) is a URL: anf-lint reads files of the repository, not what a URL serves`,
  };
}

/** `uri(deployment().properties.templateLink.uri, <path>)` (or a parameter defaulting to it): a path relative to this template's own link. */
function isOwnLinkUri(
  e: ArmExpr,
  ownLinkParameter: (name: string) => boolean,
): e is Extract<ArmExpr, { kind: 'call' }> {
  if (e.kind !== 'call' || e.name !== 'uri' || e.args.length !== 2) return false;
  const base = e.args[0]!;
  // `uri(parameters('_artifactsLocation'), ...)` with that parameter defaulting to the template's own link.
  if (base.kind === 'call' && base.name === 'parameters' && base.args[0]?.kind === 'string')
    return ownLinkParameter(base.args[0].value);
  const path: string[] = [];
  let cur: ArmExpr = base;
  while (cur.kind === 'member') {
    path.unshift(cur.property.toLowerCase());
    cur = cur.object;
  }
  return (
    cur.kind === 'call' &&
    cur.name === 'deployment' &&
    cur.args.length === 0 &&
    path.join('.') === 'properties.templatelink.uri'
  );
}

/** A linked template's URI: `path` relative to the linking template's file (backslashes as slashes). */
export function linkedTemplateUri(templateUri: string, path: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/')) return undefined;
  try {
    return new URL(path.replace(/\\/g, '/'), templateUri).href;
  } catch {
    return undefined;
  }
}
