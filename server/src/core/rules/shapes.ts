/**
 * The types of a rule and its shapes (rule.ts re-exports them with `defineRule`). Types only, so
 * the engine's loops (items.ts) can name them without importing `defineRule`, which uses the loops.
 */
import type { Finding, FixApplicability, Severity } from '../diagnostics';
import type { SourceKey } from '../facts';
import type { ResolvedConfig } from '../config';
import type { MountEntry } from '../mounts/model';
import type { JudgedMount } from '../mounts/judged';
import type { IacEstate, IacPool, IacVolume } from '../iac/estate';
import type { ManifestDocument } from '../manifest/model';
import type { PoolVisit, VolumeVisit } from '../manifest/visits';
import type { PerfJob } from '../perftest/model';
import type { KernelSetting } from '../sysctl/model';
import type { ParsedFile } from '../workspace/parsedFile';
import type { WorkspaceView } from '../workspace/workspaceView';

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

/** What every rule declares, whatever its shape. */
export interface RuleInfo {
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
   * Cheap test so the engine only runs a rule on files it can judge. An item rule's check must
   * itself return on an item this test would exclude: the engine judges an edited item alone without it.
   */
  appliesTo(file: ParsedFile): boolean;
}

/**
 * A fingerprint of what an item rule's findings read besides the item, in parts: `shared`, what every
 * finding reads; `byKey`, for each key (a transport key, say), what the findings of the items with
 * that key read. The engine compares it between lints (rules/engine.ts).
 */
export interface KeyedContext {
  readonly shared: string;
  readonly byKey: ReadonlyMap<string, string>;
}

/**
 * What a mount rule's findings read besides the mount, its file's text, the workspace's volumes and
 * the configuration (which every item rule may read: a change of volumes or configuration judges
 * every item again). Worked out once per lint of the file (`of`) and handed to each `checkMount`.
 */
export interface MountReads<Read> {
  /** In words, for the rule's reader: "the first mount to each server of the host". */
  readonly what: string;
  /** The value `checkMount` receives, once per lint of the file. */
  of(context: RuleContext): Read;
  /**
   * A cheap fingerprint of everything the findings read through `of`: kept findings are reused only
   * while it stays the same; a keyed one judges again only the mounts of the keys that changed.
   */
  fingerprint(context: RuleContext): string | KeyedContext;
  /**
   * With a keyed fingerprint: the key whose part a mount's findings read (it may depend only on the
   * mount's own fields), or undefined when they read no key's part.
   */
  keyOf?(mount: MountEntry): string | undefined;
}

/**
 * The checkMount shape: a rule that judges each mount on its own. Its findings depend only on the
 * mount, the file's text, the workspace's volumes, the configuration and what it declares in
 * `reads`; they lie on the mount's own text and come mount by mount. The engine loops over the
 * file's NFS mounts (`judges: 'any mount'`: every mount), keeps an unchanged mount's findings after
 * an edit and judges the edited mounts alone (rules/engine.ts). Rules that compare mounts with each
 * other (duplicates) are file rules.
 *
 * Write a finding's message in a function outside `checkMount` (`lazyFinding`, diagnostics.ts): a
 * closure in the check would make V8 allocate its captured variables for every mount, reported or not.
 */
export interface MountRuleShape<Read = undefined> extends RuleInfo {
  readonly judges?: 'nfs mount' | 'any mount';
  readonly reads?: MountReads<Read>;
  checkMount(mount: JudgedMount, context: RuleContext, read: Read): void;
}

/**
 * The checkSetting shape: a rule that judges each kernel setting on its own. A setting's findings
 * depend only on that setting and the configuration (not on other settings, files or the host), lie
 * on the setting's own text (fixes too: no line removal) and come in the file's order.
 */
export interface SettingRuleShape extends RuleInfo {
  checkSetting(setting: KernelSetting, context: RuleContext): void;
}

/**
 * The checkVolume shape: a rule that judges each volume of an estate (a manifest, or the model read
 * from infrastructure code) on its own, with its pool and account; the engine loops over the volumes
 * in document order. The whole estate is at hand (`estate`) for figures and look-ups.
 */
export interface VolumeRuleShape extends RuleInfo {
  checkVolume(volume: VolumeVisit, context: RuleContext, estate: ManifestDocument): void;
}

/** The checkPool shape: as checkVolume, for each capacity pool with its account. */
export interface PoolRuleShape extends RuleInfo {
  checkPool(pool: PoolVisit, context: RuleContext, estate: ManifestDocument): void;
}

/**
 * The checkIacVolume shape: a rule that judges each volume resource of infrastructure code as the code
 * writes it (`file.iac`: export rules, zones, API version, the values' own spans), on its own; the
 * engine loops over the estate's volumes in document order. A rule that reads the volume as sized
 * (quota, throughput, its pool's figures) is a checkVolume rule: infrastructure code fills the same
 * estate model as a manifest.
 */
export interface IacVolumeRuleShape extends RuleInfo {
  checkIacVolume(volume: IacVolume, context: RuleContext, estate: IacEstate): void;
}

/** The checkIacPool shape: as checkIacVolume, for each capacity pool resource. */
export interface IacPoolRuleShape extends RuleInfo {
  checkIacPool(pool: IacPool, context: RuleContext, estate: IacEstate): void;
}

/**
 * The checkEstate shape: a rule that judges an estate (a manifest, or the model infrastructure code
 * fills) as a whole, comparing its items (duplicates, counts per account, every size in document
 * order); the engine calls it once per file that has one.
 */
export interface EstateRuleShape extends RuleInfo {
  checkEstate(estate: ManifestDocument, context: RuleContext): void;
}

/** The checkJob shape: a rule that judges each job of a performance-test file (fio, vdbench) on its own, in file order. */
export interface JobRuleShape extends RuleInfo {
  checkJob(job: PerfJob, context: RuleContext): void;
}

/** The checkFile shape, for every other rule: it reads the whole file (and the workspace) and reports. */
export type FileRuleShape = RuleInfo &
  ({ check(context: RuleContext): void } | { checkFile(context: RuleContext): void });

/**
 * A rule as the engine holds it: its declaration, `check` (a whole run on one file: the rule's own
 * for a file rule, the engine's loop over the items for an item rule) and, for an item rule, its
 * check of one item.
 */
export interface Rule extends RuleInfo {
  check(context: RuleContext): void;
  readonly checkMount?: (mount: JudgedMount, context: RuleContext, read: unknown) => void;
  readonly judges?: 'nfs mount' | 'any mount';
  readonly reads?: MountReads<unknown>;
  readonly checkSetting?: (setting: KernelSetting, context: RuleContext) => void;
  readonly checkVolume?: (volume: VolumeVisit, context: RuleContext, estate: ManifestDocument) => void;
  readonly checkPool?: (pool: PoolVisit, context: RuleContext, estate: ManifestDocument) => void;
  readonly checkIacVolume?: (volume: IacVolume, context: RuleContext, estate: IacEstate) => void;
  readonly checkIacPool?: (pool: IacPool, context: RuleContext, estate: IacEstate) => void;
  readonly checkJob?: (job: PerfJob, context: RuleContext) => void;
  readonly checkEstate?: (estate: ManifestDocument, context: RuleContext) => void;
}
