import type { Finding, FixApplicability, Severity } from '../diagnostics';
import type { SourceKey } from '../facts';
import type { ResolvedConfig } from '../config';
import type { MountEntry } from '../mounts/model';
import type { ParsedFile } from '../workspace/parsedFile';
import type { WorkspaceView } from '../workspace/workspaceView';

/**
 * A `perMountContext` fingerprint in parts: `shared`, what every finding reads besides its own mount;
 * `byKey`, for each key (a transport key, say), what the findings of the mounts with that key read.
 */
export interface KeyedContext {
  readonly shared: string;
  readonly byKey: ReadonlyMap<string, string>;
}

export type RuleDomain = 'general' | 'manifest' | 'mount' | 'sysctl' | 'config' | 'iac' | 'perftest';

/** A rule's page, in the shape ruff and Biome use: what it does, why it matters, what to write instead. */
export interface RuleDoc {
  /** One line, used as the diagnostic's title in SARIF and `anf-lint rules`. */
  readonly title: string;
  readonly what: string;
  readonly why: string;
  readonly instead: string;
  /**
   * Short examples shown on the page: the text that is flagged and the text to write instead.
   * test/unit/rule-examples.test.ts lints each one alone, with its context: the flagged text must
   * give the rule's finding, the better text none of its findings.
   */
  readonly examples?: readonly RuleExample[];
  readonly sources?: readonly SourceKey[];
}

/** One example of a rule's page: a complete file as written, flagged and better. */
export interface RuleExample {
  readonly flagged: string;
  readonly better: string;
  /** The page's code fence language (`fstab`, `ini`, `yaml`, `hcl`, `bicep`, `sh`, `json`). */
  readonly language?: string;
  /**
   * The example's path, which fixes its file kind (`etc/sysctl.d/90-nfs.conf`, `main.tf`). Left out
   * for an `fstab` (etc/fstab), `sh` (mount.sh), `hcl` (main.tf) or `bicep` (main.bicep) example,
   * a manifest rule's (example.anf.yaml or .json) and a configuration rule's (.anf-lint.yaml).
   */
  readonly file?: string;
  /**
   * Other files the rule reads, linted beside the example and shown with it on the page: a manifest
   * (`eda.anf.yaml`), the `.anf-lint.yaml` the example is linted with, the fstab of the same host.
   */
  readonly context?: readonly { readonly path: string; readonly text: string }[];
}

export interface RuleContext {
  readonly file: ParsedFile;
  readonly workspace: WorkspaceView;
  readonly config: ResolvedConfig;
  report(finding: Finding): void;
}

export interface Rule {
  /** Stable code: ANF0xx general, ANF1xx manifest, ANF2xx mounts, ANF3xx kernel tuning, ANF4xx infrastructure code, ANF9xx configuration. */
  readonly code: string;
  /** kebab-case name, also the rule file's name after its code. */
  readonly name: string;
  readonly domain: RuleDomain;
  readonly defaultSeverity: Severity;
  /**
   * The applicabilities its fixes can have: `[]` (no fix), `['safe']`, `['unsafe']` or both. Each fix
   * carries its own applicability; test/rules/fixApplicability.test.ts checks that this lists them.
   */
  readonly fixes: readonly FixApplicability[];
  readonly doc: RuleDoc;
  /**
   * The rule judges each mount on its own: a mount's findings depend only on that mount (its fields
   * and annotation), the workspace's volumes and the configuration, lie on the mount's own text, and
   * are reported mount by mount in the file's order. The engine then keeps an unchanged mount's
   * findings after an edit and runs the rule on the edited mounts alone (lint.ts, `LintMemo`).
   * Rules that compare mounts with each other (duplicates, the first mount to a server) must not say so.
   */
  readonly perMount?: boolean;
  /**
   * For a `perMount` rule whose findings also depend on a few other mounts (the first mount to each
   * server, say): a cheap fingerprint of everything they read besides the mount itself. Kept
   * findings are reused only while it stays the same; otherwise the rule runs whole again.
   * A `KeyedContext` says more: when only some keys' parts changed, only the mounts with those keys
   * (`contextKeyOf`) are judged again, the other kept findings stay.
   */
  perMountContext?(context: RuleContext): string | KeyedContext;
  /**
   * With a `KeyedContext`: the key whose part of it a mount's findings read (the same for a mount
   * as long as the mount object is kept: it may depend only on the mount's own fields), or
   * undefined when they read no key's part.
   */
  contextKeyOf?(mount: MountEntry): string | undefined;
  /**
   * The rule judges each kernel setting of a sysctl file on its own: a setting's findings depend only
   * on that setting and the configuration (not on other settings, files or the host), lie on the
   * setting's own text (fixes too: no line removal) and come in the file's order. As `perMount`, the
   * engine then runs it on the edited settings alone (lint.ts, `LintMemo`).
   */
  readonly perSetting?: boolean;
  /** Cheap test so the engine only runs a rule on files it can judge. */
  appliesTo(file: ParsedFile): boolean;
  check(context: RuleContext): void;
}

export function defineRule(rule: Rule): Rule {
  return rule;
}
