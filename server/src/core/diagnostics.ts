import type { Range, Span } from './text/sourceText';

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info', 'hint'];

/** Unnecessary: shown faded (an ignored option); Deprecated: struck through (a removed key). */
export type DiagnosticTag = 'unnecessary' | 'deprecated';

/** An edit in offsets of one document (the rule's own unless `uri` says otherwise). */
export interface SpanEdit {
  readonly uri?: string;
  readonly span: Span;
  readonly newText: string;
}

/**
 * Whether a fix may be applied without review. A `safe` fix never changes what the machine does
 * beyond what the user clearly meant: it runs on --fix and the editor's fix-all. An `unsafe` fix runs
 * only on request (--unsafe-fixes, or picked from the quick-fix menu).
 */
export type FixApplicability = 'safe' | 'unsafe';
export const FIX_APPLICABILITIES: readonly FixApplicability[] = ['safe', 'unsafe'];

/** A fix as a rule makes it, with its applicability decided where it is made (safeFix / unsafeFix). */
export interface Fix {
  readonly title: string;
  readonly edits: readonly SpanEdit[];
  readonly applicability: FixApplicability;
}

/** A fix that may run without review (--fix, fix-all). */
export function safeFix(title: string, edits: readonly SpanEdit[]): Fix {
  return { title, edits, applicability: 'safe' };
}

/** A fix that runs only on request (--unsafe-fixes, the quick-fix menu). */
export function unsafeFix(title: string, edits: readonly SpanEdit[]): Fix {
  return { title, edits, applicability: 'unsafe' };
}

/**
 * A fix helper in both applicabilities, so that the call names it: `helper.safe(...)`,
 * `helper.unsafe(...)`, or `helper[applicability](...)` where the rule decides.
 */
export function byApplicability<A extends unknown[], R>(
  make: (applicability: FixApplicability, ...args: A) => R,
): Readonly<Record<FixApplicability, (...args: A) => R>> {
  return { safe: (...args) => make('safe', ...args), unsafe: (...args) => make('unsafe', ...args) };
}

export interface RelatedSpan {
  readonly uri: string;
  readonly span: Span;
  readonly message: string;
}

/** What a rule reports: offsets into the file, no code or severity (the engine adds those). */
export interface Finding {
  readonly span: Span;
  readonly message: string;
  /** Overrides the rule's default severity for this one finding (e.g. error vs warning by workload). */
  readonly severity?: Severity;
  readonly fixes?: readonly Fix[];
  readonly related?: readonly RelatedSpan[];
  readonly tags?: readonly DiagnosticTag[];
  /**
   * The other values of this file the finding was worked out from (a pool's finding: the pool's
   * size and throughput, its volumes' quotas and throughputs). Not shown: infrastructure code read
   * through module calls decides with them which file reports the finding (iac/hover.ts
   * `withValueOrigin`), since a module's own file, read with its defaults, does not see the values
   * its callers pass.
   */
  readonly restsOn?: readonly Span[];
}

/** What a finding says and offers: made only when a report lists it (`lazyFinding`). */
export interface FindingText {
  readonly message: string;
  readonly fixes?: readonly Fix[];
  readonly related?: readonly RelatedSpan[];
}

/** What a finding must tell at once: where, and what it counts as (a report counts every finding by severity). */
export interface FindingHead {
  readonly span: Span;
  readonly severity?: Severity;
  readonly tags?: readonly DiagnosticTag[];
  /** `Finding.restsOn`: known when the finding is made, since it decides which file reports it. */
  readonly restsOn?: readonly Span[];
}

/**
 * A finding whose message, fixes and related notes are made when first read. A report lists the
 * first findings of each rule and counts the rest (ANF010), so a rule that finds the same problem
 * on every line of a 10,000-line file builds the text of the hundred it lists, not of all of them.
 * `describe` runs at most once, after the rule has gone on (when the engine places the finding,
 * or never): it may read only what cannot change meanwhile (the file's model, values the rule
 * worked out for this finding), never state the rule keeps changing. test/unit/lazy-findings.test.ts
 * lints every fixture and example both ways (`setEagerFindings`) and compares.
 */
export function lazyFinding(head: FindingHead, describe: () => FindingText): Finding {
  return eagerFindings ? { ...head, ...describe() } : new LazyFinding(head, describe);
}

let eagerFindings = false;

/** Tests only: `lazyFinding` describes at once, to compare with the lazy default. */
export function setEagerFindings(eager: boolean): void {
  eagerFindings = eager;
}

class LazyFinding implements Finding {
  readonly span: Span;
  readonly severity?: Severity;
  readonly tags?: readonly DiagnosticTag[];
  readonly restsOn?: readonly Span[];
  private describe: (() => FindingText) | undefined;
  private text: FindingText | undefined;

  constructor(head: FindingHead, describe: () => FindingText) {
    // Every field assigned, undefined or not: one shape for all lazy findings.
    this.span = head.span;
    this.severity = head.severity;
    this.tags = head.tags;
    this.restsOn = head.restsOn;
    this.describe = describe;
    this.text = undefined;
  }

  private made(): FindingText {
    if (!this.text) {
      this.text = this.describe!();
      this.describe = undefined;
    }
    return this.text;
  }

  get message(): string {
    return this.made().message;
  }

  get fixes(): readonly Fix[] | undefined {
    return this.made().fixes;
  }

  get related(): readonly RelatedSpan[] | undefined {
    return this.made().related;
  }
}

/**
 * A finding as a plain object, every field read: the way to copy one with some fields changed
 * (`{ ...plainFinding(f), span }`). A spread alone would drop the fields a `lazyFinding` makes on
 * demand in getters.
 */
export function plainFinding(finding: Finding): Finding {
  const { span, message, severity, fixes, related, tags, restsOn } = finding;
  return {
    span,
    message,
    ...(severity ? { severity } : {}),
    ...(fixes ? { fixes } : {}),
    ...(related ? { related } : {}),
    ...(tags ? { tags } : {}),
    ...(restsOn ? { restsOn } : {}),
  };
}

export interface TextEdit {
  readonly uri: string;
  readonly range: Range;
  readonly newText: string;
  /** The same edit in offsets of its document, for applying it without a line index. */
  readonly span: Span;
}

export interface ResolvedFix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
  readonly applicability: FixApplicability;
}

export interface RelatedInformation {
  readonly uri: string;
  readonly range: Range;
  readonly message: string;
}

/** A finding after the engine has placed it: code, severity, positions. LSP and CLI translate this. */
export interface Diagnostic {
  readonly uri: string;
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly range: Range;
  readonly span: Span;
  readonly fixes: readonly ResolvedFix[];
  readonly related: readonly RelatedInformation[];
  readonly tags: readonly DiagnosticTag[];
  /** Set when a suppression comment silenced it (the CLI's SARIF output still lists it). */
  readonly suppressed?: { readonly reason?: string };
  /** On the one ANF010 finding of a file whose report was cut: what it leaves out. */
  readonly omitted?: OmittedFindings;
}

/**
 * A problem a reader found (syntax, shape); reported under its rule code like any finding. Here,
 * with the findings, so that the readers (manifest/, mounts/, sysctl/, configFile.ts) need nothing
 * from workspace/, which imports them.
 */
export interface ParseProblem extends Finding {
  readonly code: string;
}

/** What a file's report leaves out past the finding limits (rules/findingLimits.ts), by severity and by rule code. */
export interface OmittedFindings {
  readonly total: number;
  readonly bySeverity: Readonly<Record<Severity, number>>;
  readonly byCode: Readonly<Record<string, number>>;
}
