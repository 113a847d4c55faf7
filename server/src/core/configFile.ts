import { closest, distance } from 'fastest-levenshtein';
import { isMap, isPair, isScalar, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type * as z from './zod';
import { resolvePrices } from './calc/cost';
import { PRICES } from './facts';
import { configSchema, ruleSettingSchema, type AnfLintConfig } from './config';
import { safeFix, unsafeFix, type Fix, type FixApplicability } from './diagnostics';
import { RULE_CATALOG } from './rules/catalog.generated';
import type { Span } from './text/sourceText';
import { stackExhaustion, TOO_DEEP_MESSAGE, yamlReadableText } from './text/yamlText';
import { nestingPastBound, tooDeepMessage } from './text/nesting';
import { parseDuration, parseRate } from './units/units';
import type { ParseProblem } from './diagnostics';

/**
 * `.anf-lint.yaml`: the one configuration file the CLI and the editor both read. Parsing never
 * throws: every problem comes back with a precise span and its rule code (ANF900–ANF904), and
 * the configuration keeps every part that was valid, so one typo does not turn everything off.
 */
export const CONFIG_FILE_NAMES = ['.anf-lint.yaml', '.anf-lint.yml'] as const;

export const CONFIG_CODES = {
  syntax: 'ANF900',
  unknownKey: 'ANF901',
  invalidValue: 'ANF902',
  unknownRule: 'ANF903',
  unknownRegion: 'ANF904',
  deprecatedKey: 'ANF905',
} as const;

export interface ConfigFileResult {
  /** The valid part of the file (invalid values and unknown keys are left out). */
  readonly config: AnfLintConfig;
  readonly problems: readonly ParseProblem[];
}

type Path = readonly (string | number)[];

/** Parses the text of a `.anf-lint.yaml` into a configuration and its problems. Never throws. */
export function parseConfigFile(text: string): ConfigFileResult {
  try {
    return parseConfigFileUnguarded(text);
  } catch (error) {
    // e.g. an alias bomb that yaml refuses to expand: the file is unusable, the editor stays up.
    const message = error instanceof Error ? error.message : String(error);
    return {
      config: {},
      problems: [
        {
          code: CONFIG_CODES.syntax,
          span: { start: 0, end: Math.min(text.length, 1) },
          message: `Cannot read the configuration: ${firstLine(message)}`,
        },
      ],
    };
  }
}

function parseConfigFileUnguarded(text: string): ConfigFileResult {
  const problems: ParseProblem[] = [];
  // Refused before the parser sees it: a parser that runs out of stack can abort the process (nesting.ts).
  const tooDeep = nestingPastBound(text);
  if (tooDeep)
    return {
      config: {},
      problems: [
        {
          code: CONFIG_CODES.syntax,
          span: { start: tooDeep.offset, end: Math.min(text.length, tooDeep.offset + 1) },
          message: tooDeepMessage(),
        },
      ],
    };
  const doc = parseDocument(yamlReadableText(text), { prettyErrors: false, uniqueKeys: true });
  if (stackExhaustion(doc.errors))
    return {
      config: {},
      problems: [
        { code: CONFIG_CODES.syntax, span: { start: 0, end: Math.min(text.length, 1) }, message: TOO_DEEP_MESSAGE },
      ],
    };
  for (const error of doc.errors) {
    // yaml puts an error at the end of the file one past it ([length, length + 1]): clamp to the text.
    const start = Math.min(error.pos[0] ?? 0, text.length);
    const end = Math.min(Math.max(error.pos[1] ?? start, start), text.length);
    problems.push({
      code: CONFIG_CODES.syntax,
      span: { start, end },
      message: `YAML syntax: ${firstLine(error.message)}`,
    });
  }
  if (doc.errors.length > 0) return { config: {}, problems };

  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && (contents.value === null || contents.value === undefined)))
    return { config: {}, problems };
  if (!isMap(contents)) {
    problems.push({
      code: CONFIG_CODES.invalidValue,
      span: spanOf(contents, text),
      message: 'The configuration must be a mapping of keys, e.g. `rules:` and `region:`.',
    });
    return { config: {}, problems };
  }

  let value = doc.toJS() as Record<string, unknown>;
  const rules = checkRules(doc, value['rules'], text, problems);
  value = { ...value };
  delete value['rules'];

  // Let the schema judge everything but `rules` (checked above with better messages).
  const parsed = configSchema.safeParse(value);
  const dropped: Path[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const path = [...issue.path, key] as Path;
          dropped.push(path);
          problems.push(unknownKeyProblem(doc, path, knownKeysAt(issue.path as Path), text));
        }
        continue;
      }
      const path = issue.path as Path;
      dropped.push(path);
      const span = spanAt(doc, path, text);
      const fix = quoteFix(path, issue, text.slice(span.start, span.end), span);
      problems.push({
        code: CONFIG_CODES.invalidValue,
        span,
        message: invalidValueMessage(path, issue, valueAt(value, path), text.slice(span.start, span.end)),
        ...(fix ? { fixes: [fix] } : {}),
      });
    }
  }

  // Values the schema accepts as strings but that must parse.
  const network = value['network'];
  if (network && typeof network === 'object') {
    const parsers = { rtt: parseDuration, bandwidth: parseRate } as const;
    for (const [key, parse] of Object.entries(parsers)) {
      const written = (network as Record<string, unknown>)[key];
      if (typeof written !== 'string') continue;
      const result = parse(written);
      if (result.ok) continue;
      dropped.push(['network', key]);
      problems.push({
        code: CONFIG_CODES.invalidValue,
        span: spanAt(doc, ['network', key], text),
        message: `network.${key}: ${result.error}`,
      });
    }
  }
  // Issue 27: the var files moved under `iac:` beside the parameters files; the old key is still read.
  const terraform = value['terraform'];
  if (terraform !== null && typeof terraform === 'object' && 'varFiles' in terraform) {
    problems.push({
      code: CONFIG_CODES.deprecatedKey,
      span: keySpanAt(doc, ['terraform', 'varFiles'], text),
      message:
        '`terraform.varFiles` is the old place of this key: it is still read, but move it under `iac:` as `iac.varFiles` (beside `iac.parameterFiles`). Where both name a folder, `iac.varFiles` wins.',
    });
  }
  const region = value['region'];
  if (typeof region === 'string' && !resolvePrices(region).known) {
    problems.push({
      code: CONFIG_CODES.unknownRegion,
      span: spanAt(doc, ['region'], text),
      message: `anf-lint has no list prices for region "${region}"; costs use ${resolvePrices(undefined).region} prices. Set \`prices:\` to your own rates, or use one of: ${Object.keys(PRICES).join(', ')}.`,
    });
  }

  let cleaned: Record<string, unknown> = value;
  for (const path of dropped) cleaned = withoutPath(cleaned, path);
  const final = configSchema.safeParse(cleaned);
  const config: AnfLintConfig = final.success ? final.data : {};
  if (Object.keys(rules).length > 0) return { config: { ...config, rules }, problems: sortProblems(problems) };
  return { config, problems: sortProblems(problems) };
}

// ---------------------------------------------------------------------------------------------

function checkRules(
  doc: Document,
  rulesValue: unknown,
  text: string,
  problems: ParseProblem[],
): Record<string, z.infer<typeof ruleSettingSchema>> {
  const result: Record<string, z.infer<typeof ruleSettingSchema>> = {};
  if (rulesValue === undefined || rulesValue === null) return result;
  const node = doc.getIn(['rules'], true) as YamlNode | undefined;
  if (!isMap(node)) {
    problems.push({
      code: CONFIG_CODES.invalidValue,
      span: spanAt(doc, ['rules'], text),
      message: 'rules: write one rule per line, e.g. `ANF204: off`.',
    });
    return result;
  }
  const codes = RULE_CATALOG.map((r) => r.code);
  const settings = ruleSettingSchema.options as readonly string[];
  for (const pair of node.items) {
    if (!isPair(pair)) continue;
    const keyNode = pair.key as YamlNode | null;
    const code = isScalar(keyNode) ? String(keyNode.value) : '';
    const keySpan = keyNode ? spanOf(keyNode, text) : { start: 0, end: 0 };
    const valueNode = pair.value as YamlNode | null;
    const setting = isScalar(valueNode) ? valueNode.value : undefined;
    const normalized = code.trim().toUpperCase();
    if (!codes.includes(normalized)) {
      // A rule's name (`soft-mount`) names its code; a near-miss code is one edit away.
      const byName = RULE_CATALOG.find((r) => r.name === code.trim().toLowerCase())?.code;
      const suggestion = byName ?? suggest(normalized, codes, 1);
      problems.push({
        code: CONFIG_CODES.unknownRule,
        span: keySpan,
        message: /^ANF\d{3}$/.test(normalized)
          ? `rules: anf-lint has no rule ${normalized}${suggestion ? `; did you mean ${suggestion}?` : ''} (\`anf-lint rules\` lists them).`
          : `rules: "${code}" is not a rule code (codes look like ANF201)${suggestion ? `; did you mean ${suggestion}?` : '.'}`,
        ...(suggestion
          ? { fixes: [unsafeFix(`Change to ${suggestion}`, [{ span: keySpan, newText: suggestion }])] }
          : {}),
      });
      // An unknown but well-formed code is kept: it may belong to a newer anf-lint.
      if (!/^ANF\d{3}$/.test(normalized)) continue;
    }
    if (typeof setting !== 'string' || !settings.includes(setting)) {
      const span = valueNode ? spanOf(valueNode, text) : keySpan;
      const suggestion =
        typeof setting === 'string'
          ? suggest(setting.toLowerCase(), settings, 3)
          : setting === false
            ? 'off'
            : undefined;
      problems.push({
        code: CONFIG_CODES.invalidValue,
        span,
        message: `rules.${code}: ${JSON.stringify(setting ?? null)} is not a severity; write one of ${settings.join(', ')}${suggestion ? ` (did you mean ${suggestion}?)` : ''}.`,
        ...(suggestion && valueNode
          ? { fixes: [severityFix(`Change to ${suggestion}`, span, suggestion, setting)] }
          : {}),
      });
      continue;
    }
    result[normalized] = setting as z.infer<typeof ruleSettingSchema>;
  }
  return result;
}

function unknownKeyProblem(doc: Document, path: Path, known: readonly string[], text: string): ParseProblem {
  const key = String(path[path.length - 1]);
  const keySpan = keySpanAt(doc, path, text);
  const suggestion = suggest(key, known, Math.max(2, Math.floor(key.length / 3)));
  const where = path.length > 1 ? `${path.slice(0, -1).join('.')}: ` : '';
  return {
    code: CONFIG_CODES.unknownKey,
    span: keySpan,
    message: `${where}unknown key "${key}"${suggestion ? `; did you mean "${suggestion}"?` : '.'} Known keys here: ${known.join(', ')}.`,
    ...(suggestion ? { fixes: [unsafeFix(`Rename to ${suggestion}`, [{ span: keySpan, newText: suggestion }])] } : {}),
  };
}

/** A severity written another way: `false` → off and a change of case mean the same (safe); a near miss is a guess (unsafe). */
function severityFix(title: string, span: Span, suggestion: string, written: unknown): Fix {
  const applicability: FixApplicability =
    written === false || suggestion === String(written).toLowerCase() ? 'safe' : 'unsafe';
  return { title, edits: [{ span, newText: suggestion }], applicability };
}

function invalidValueMessage(path: Path, issue: z.core.$ZodIssue, value: unknown, written: string): string {
  const where = path.join('.') || 'configuration';
  if (issue.code === 'invalid_value' && 'values' in issue) {
    const values = (issue.values as unknown[]).map(String);
    const suggestion = typeof value === 'string' ? suggest(value, values, 3) : undefined;
    return `${where}: ${JSON.stringify(value)} is not allowed; write one of ${values.join(', ')}${suggestion ? ` (did you mean ${suggestion}?)` : ''}.`;
  }
  if (issue.code === 'invalid_type' && issue.expected === 'string' && typeof value === 'number') {
    if (where === 'network.rtt') return `${where}: ${value} has no unit; write it like "${value} ms".`;
    if (where === 'network.bandwidth')
      return `${where}: ${value} has no unit; write it like "${value} Gbps" or "${value} MiB/s".`;
    return `${where}: ${written} reads as the number ${value}; write it in quotes: "${written}".`;
  }
  if (issue.code === 'invalid_type') return `${where}: expected ${issue.expected}, got ${describe(value)}.`;
  return `${where}: ${issue.message}.`.replace(/\.\.$/, '.');
}

/** `kernelVersion: 5.10` reads as the number 5.1: quoting the text as written keeps what was meant. */
function quoteFix(path: Path, issue: z.core.$ZodIssue, written: string, span: Span): Fix | undefined {
  if (issue.code !== 'invalid_type' || issue.expected !== 'string' || path.join('.') !== 'kernelVersion')
    return undefined;
  if (!/^\d+\.\d+(\.\d+)?$/.test(written)) return undefined;
  return safeFix(`Quote the version: "${written}"`, [{ span, newText: `"${written}"` }]);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** The keys the schema allows under a path of object keys. */
function knownKeysAt(path: Path): string[] {
  let schema: z.core.$ZodType | undefined = configSchema;
  for (const key of path) {
    const def: z.core.$ZodTypeDef | undefined = unwrap(schema)?._zod.def;
    if (def?.type !== 'object') return [];
    schema = (def as z.core.$ZodObjectDef).shape[String(key)];
  }
  const def = unwrap(schema)?._zod.def;
  return def?.type === 'object' ? Object.keys((def as z.core.$ZodObjectDef).shape) : [];
}

/** Through optional, nullable and default wrappers. */
function unwrap(schema: z.core.$ZodType | undefined): z.core.$ZodType | undefined {
  let current = schema;
  while (
    current &&
    (current._zod.def.type === 'optional' ||
      current._zod.def.type === 'nullable' ||
      current._zod.def.type === 'default')
  ) {
    current = (current._zod.def as z.core.$ZodOptionalDef).innerType;
  }
  return current;
}

function suggest(word: string, candidates: readonly string[], maxDistance: number): string | undefined {
  if (candidates.length === 0) return undefined;
  const lower = candidates.map((c) => c.toLowerCase());
  const best = closest(word.toLowerCase(), lower);
  const index = lower.indexOf(best);
  return distance(word.toLowerCase(), best) <= maxDistance ? candidates[index] : undefined;
}

function spanOf(node: YamlNode, text: string): Span {
  const range = node.range;
  if (!range) return { start: 0, end: Math.min(text.length, 1) };
  return { start: range[0], end: Math.max(range[1], range[0]) };
}

/** The span of the value at a path, else of the nearest ancestor that exists. */
function spanAt(doc: Document, path: Path, text: string): Span {
  for (let length = path.length; length >= 0; length--) {
    const node = (length === 0 ? doc.contents : doc.getIn(path.slice(0, length), true)) as YamlNode | null | undefined;
    if (node && node.range) {
      if (node.range[0] === node.range[1] && length > 0) return keySpanAt(doc, path.slice(0, length), text);
      return spanOf(node, text);
    }
    if (length > 0 && node === null) return keySpanAt(doc, path.slice(0, length), text);
  }
  return { start: 0, end: 0 };
}

/** The span of the key of the pair at a path. */
function keySpanAt(doc: Document, path: Path, text: string): Span {
  const parent = (path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true)) as YamlNode | null | undefined;
  const key = path[path.length - 1];
  if (isMap(parent)) {
    for (const pair of parent.items) {
      if (isScalar(pair.key) && String(pair.key.value) === String(key)) return spanOf(pair.key, text);
    }
  }
  return spanAt(doc, path.slice(0, -1), text);
}

function valueAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

function withoutPath(value: Record<string, unknown>, path: Path): Record<string, unknown> {
  if (path.length === 0) return {};
  const [head, ...rest] = path;
  const key = String(head);
  if (!(key in value)) return value;
  const copy = { ...value };
  const child = copy[key];
  if (rest.length === 0 || child === null || typeof child !== 'object' || Array.isArray(child)) delete copy[key];
  else copy[key] = withoutPath(child as Record<string, unknown>, rest);
  return copy;
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

function sortProblems(problems: ParseProblem[]): ParseProblem[] {
  return problems.sort((a, b) => a.span.start - b.span.start || a.code.localeCompare(b.code));
}
