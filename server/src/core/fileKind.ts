/**
 * Which kind of file a document is, from its name and, where the name is not enough, its content.
 * The same answer drives the editor, the CLI and the workspace index.
 */

/**
 * What anf-lint reads in each kind of file besides its own format:
 * - `mounts`: NFS mounts (the mount readers run on it; `remote-exec` commands in Terraform);
 * - `mountLines`: mount lines written by hand (completion offers mount options there);
 * - `kernel`: kernel settings (sysctl, modprobe, tuned, saptune, and commands that set them);
 * - `estate`: infrastructure code that declares accounts, pools and volumes;
 * - `estateCommands`: az CLI, PowerShell and Trident text that creates them, besides what else it holds.
 */
type KindReads = 'mounts' | 'mountLines' | 'kernel' | 'estate' | 'estateCommands';

/** Every kind of file anf-lint tells apart, in the order it lists them, with what it reads in each. */
const KIND_READS = {
  'manifest-yaml': [],
  'manifest-json': [],
  fstab: ['mounts', 'mountLines'],
  shell: ['mounts', 'mountLines', 'kernel', 'estateCommands'],
  markdown: ['mounts', 'mountLines', 'kernel', 'estateCommands'],
  'systemd-mount': ['mounts', 'mountLines'],
  autofs: ['mounts', 'mountLines'],
  ansible: ['mounts', 'mountLines', 'kernel'],
  'ansible-vars': ['mounts'],
  'cloud-init': ['mounts', 'mountLines', 'kernel'],
  kubernetes: ['mounts', 'estateCommands'],
  helm: ['mounts'],
  'yaml-options': ['mounts', 'estateCommands'],
  'json-options': ['mounts', 'estateCommands'],
  sysctl: ['kernel'],
  modprobe: ['kernel'],
  tuned: ['kernel'],
  saptune: ['kernel'],
  rst: ['mounts', 'kernel'],
  salt: ['mounts'],
  puppet: ['mounts'],
  chef: ['mounts'],
  'anf-lint-config': [],
  terraform: ['mounts', 'estate'],
  'terraform-vars': ['estate'],
  bicep: ['estate'],
  'arm-template': ['estate'],
  'az-netappfiles-json': ['estate'],
  'arm-parameters': ['estate'],
  'bicep-params': ['estate'],
  'ci-pipeline': ['mounts', 'estateCommands'],
  powershell: ['estateCommands'],
  fio: [],
  vdbench: [],
  mountstats: [],
  unknown: [],
} as const satisfies Record<string, readonly KindReads[]>;

export type FileKind = keyof typeof KIND_READS;
export const FILE_KINDS = Object.keys(KIND_READS) as readonly FileKind[];

/** The kinds in which anf-lint reads `what`. */
export function kindsReading(what: KindReads): ReadonlySet<FileKind> {
  return new Set(FILE_KINDS.filter((kind) => (KIND_READS[kind] as readonly KindReads[]).includes(what)));
}

/** A Chef `mount` resource block (mounts/chef.ts). */
const CHEF_MOUNT = /^[ \t]*mount[ \t(]+[^\n]*?[ \t)]do[ \t]*(?:\|[^|\n]*\|)?[ \t]*$/m;

/** The path part of a `file:` URI or a plain path, with `/` separators. */
export function pathOf(uriOrPath: string): string {
  // Cached: cross-file rules ask for the host folder of every file once per file and rule, and a
  // URL parse each time made linting a 500-file repository quadratic in practice.
  const cached = PATHS.get(uriOrPath);
  if (cached !== undefined) return cached;
  if (PATHS.size >= PATH_CACHE_SIZE) PATHS.clear();
  const path = computePathOf(uriOrPath);
  PATHS.set(uriOrPath, path);
  return path;
}

const PATHS = new Map<string, string>();
const PATH_CACHE_SIZE = 20000; // not a fact: a bound on the cache's memory

/** An absolute path of characters a file URI keeps as they are (letters, digits and the punctuation URLs keep; `~` is escaped). */
const PLAIN_PATH = /^\/[A-Za-z0-9._+=,@/-]*$/;
/** An empty, `.` or `..` segment, which a URL resolves away. */
const ODD_SEGMENT = /\/\/|\/\.\.?(?:\/|$)/;

/**
 * Whether a `/`-separated absolute path is its own `file:` URI after `file://`, both ways: no
 * character a URI escapes and no segment a URL resolves away (the CLI's URIs and pathOf).
 */
export function isPlainFilePath(path: string): boolean {
  return PLAIN_PATH.test(path) && !ODD_SEGMENT.test(path);
}

/** The path of a `file:` URI or a plain path (exported for its test: the short way must agree with `pathByUrl`). */
export function computePathOf(uriOrPath: string): string {
  // Most URIs are their path after `file://`: without a URL per file (the cache above turns over every 20,000 files).
  if (uriOrPath.startsWith('file:///')) {
    const path = uriOrPath.slice('file://'.length);
    if (isPlainFilePath(path)) return path;
  }
  return pathByUrl(uriOrPath);
}

/** The path of a URI through the URL parser (decoded, `.` and `..` resolved), or of a plain path. */
export function pathByUrl(uriOrPath: string): string {
  let path = uriOrPath;
  if (/^[a-z][a-z\d+.-]*:[/][/]/i.test(path)) {
    try {
      path = decodeURIComponent(new URL(path).pathname);
    } catch {
      path = path.replace(/^[a-z][a-z\d+.-]*:[/][/][^/]*/i, '');
    }
  }
  return path.replace(/\\/g, '/');
}

export function baseName(uriOrPath: string): string {
  const path = pathOf(uriOrPath);
  return path.slice(path.lastIndexOf('/') + 1);
}

const BOM = '\uFEFF';
// ARM templates and `az netappfiles ... show/list` output name NetApp resource types.
const NETAPP_TYPE = /"Microsoft\.NetApp\/netAppAccounts/i;
const DEPLOYMENT_SCHEMA = /"\$schema"\s*:\s*"[^"]*deploymentTemplate\.json/i;
// An ARM (or Bicep JSON) parameters file: its schema, or a `*.parameters[.example].json` name with a `parameters` object.
const PARAMETERS_SCHEMA = /"\$schema"\s*:\s*"[^"]*deploymentParameters\.json/i;
const PARAMETERS_NAME = /\.parameters(?:\.[\w-]+)?\.json$/i;
const SHEBANG_SHELL = /^#!\s*\S*\b(?:ba|da|k|z)?sh\b/;
// A mount task, a shell/command task that runs mount, or a line written to /etc/fstab.
// `[ \t]*(?:-[ \t]*)?` rather than `\s*-?\s*`: linear on long runs of blanks.
const ANSIBLE_MOUNT =
  /^[ \t]*(?:-[ \t]*)?(?:(?:ansible\.(?:posix|builtin)\.)?mount[ \t]*:|(?:ansible\.builtin\.)?(?:shell|command)[ \t]*:[^\n]*\b(?:mount|Filesystem)\b|(?:path|dest)[ \t]*:[ \t]*["']?\/etc\/fstab)/m;
// Tasks that write kernel settings: the sysctl module, or a file written under sysctl.d or modprobe.d.
const ANSIBLE_KERNEL =
  /^[ \t]*(?:-[ \t]*)?(?:(?:ansible\.posix\.)?sysctl[ \t]*:|(?:path|dest)[ \t]*:[ \t]*["']?\/etc\/(?:sysctl\.d\/|sysctl\.conf|modprobe\.d\/|auto\.))/m;
/** An NFS option written in a string: `nfsvers=4.1`, `vers=3`, `nconnect=8`, a `mountOptions:` key. */
const OPTION_HINT = /(?:\b(?:nfsvers|vers)=[234]\b|\bnconnect=\d|^[ \t]*(?:nfsM|m)ountOptions[ \t]*:)/m;
const JSON_OPTION_HINT = /\b(?:nfsvers|vers)=[234]\b|\bnconnect=\d|"(?:nfsM|m)ountOptions"[ \t]*:/;
/** A CI pipeline (GitHub Actions, Azure Pipelines, GitLab CI) by its path or its top-level keys. */
const PIPELINE_PATH = /(?:^|\/)\.github\/workflows\/[^/]+$|(?:^|\/)(?:azure-pipelines[^/]*|\.gitlab-ci)\.ya?ml$/i;
const PIPELINE_KEYS = /^(?:jobs|steps|stages)[ \t]*:|^[ \t]*-?[ \t]*task[ \t]*:[ \t]*Azure(?:CLI|PowerShell)@/m;
/** Azure NetApp Files commands: `az netappfiles ...`, `New-AzNetAppFilesVolume` ... */
const NETAPPFILES_COMMAND = /\baz[ \t]+netappfiles\b|-AzNetAppFiles/i;
/** A Trident backend for Azure NetApp Files (a `tridentctl` backend file, JSON or YAML). */
const TRIDENT_ANF_BACKEND = /["']?storageDriverName["']?[ \t]*:[ \t]*["']?azure-netapp-files\b/;
const ANSIBLE_PLAY = /^[ \t]*(?:-[ \t]*)?(?:hosts|tasks|roles|name|become)[ \t]*:/m;

/**
 * A saptune note (`/etc/saptune/extra/*.conf`, `/usr/share/saptune/notes/<number>`): ini sections,
 * of which `[sysctl]` sets kernel parameters. By path, or by a `[version]` or `[reminder]` section
 * next to `[sysctl]`.
 */
function isSaptuneNote(
  path: string,
  segments: () => readonly string[],
  lower: string,
  text: string | undefined,
): boolean {
  if (path.includes('saptune')) {
    const all = segments();
    if (
      all.includes('saptune') &&
      (lower.endsWith('.conf') || /^\d+$/.test(lower) || all.includes('notes') || all.includes('extra'))
    )
      return true;
  }
  if (text === undefined || !(lower.endsWith('.conf') || lower.endsWith('.ini') || !lower.includes('.'))) return false;
  return /^\[sysctl\][ \t]*$/m.test(text) && /^\[(?:version|reminder)\][ \t]*$/m.test(text);
}

/** fio's job-defining keys: a section header and two of these make an ini file a fio job file. */
const FIO_KEY =
  /^[ \t]*(?:rw|readwrite|ioengine|iodepth|bs|blocksize|numjobs|direct|rwmixread|time_based|ramp_time)[ \t]*(?:=|$)/gm;

function looksLikeFioJobFile(text: string): boolean {
  if (!/^[ \t]*\[[^\]\n]+\][ \t]*$/m.test(text)) return false;
  const keys = new Set<string>();
  for (const match of text.matchAll(FIO_KEY)) {
    keys.add(match[0].replace(/[\s=]/g, ''));
    if (keys.size >= 2) return true;
  }
  return false;
}

/**
 * Whether a file whose name alone leaves its kind open (`detectFileKind(path)` is `unknown`) may be
 * lintable by its text: YAML (cloud-init, Ansible, Kubernetes), JSON with option strings and
 * ini-style saptune notes. (Files without an extension, shell scripts with a shebang, are a
 * caller's choice.)
 */
export function kindNeedsText(uriOrPath: string): boolean {
  // Chef recipes (`cookbooks/x/recipes/default.rb`): their text says whether they hold a `mount` resource; other Ruby is never read.
  return (
    /\.(?:ya?ml|json|conf|ini|job)$/i.test(baseName(uriOrPath)) ||
    /(?:^|\/)recipes\/[^/]+\.rb$/i.test(pathOf(uriOrPath))
  );
}

const TEMPLATE_SUFFIX = /\.(?:j2|jinja2?)$/i;
/** Line-based kinds whose readers skip template lines; others (YAML, shell) are not read from templates. */
const TEMPLATED_KINDS: ReadonlySet<FileKind> = new Set(['fstab', 'systemd-mount', 'autofs', 'sysctl', 'modprobe']);

/** Detects a document's kind. `text` is only read when the name leaves it open. */
export function detectFileKind(uriOrPath: string, withBom?: string): FileKind {
  // A byte-order mark (Windows editors write one) must not hide `#cloud-config` or a shebang.
  const text = withBom?.startsWith(BOM) ? withBom.slice(BOM.length) : withBom;
  const path = pathOf(uriOrPath);
  const name = baseName(path);
  const lower = name.toLowerCase();
  // The folder's name, and the path's segments only where a rule needs them: this runs for every
  // file of a repository, three times (discovery, the project, the workspace).
  const nameStart = path.lastIndexOf('/');
  const parent = nameStart > 0 ? path.slice(path.lastIndexOf('/', nameStart - 1) + 1, nameStart) : '';
  const segments = (): readonly string[] => path.split('/');

  if (lower === '.anf-lint.yaml' || lower === '.anf-lint.yml') return 'anf-lint-config';
  // An Ansible template of a line-based file (`templates/fstab.j2`, `sysctl.conf.j2`): read as that
  // file; its `{% %}` lines are skipped (text/templateLines.ts) and `{{ }}` values are unknown.
  const template = TEMPLATE_SUFFIX.exec(path);
  if (template) {
    const kind = detectFileKind(path.slice(0, template.index), text);
    return TEMPLATED_KINDS.has(kind) ? kind : 'unknown';
  }
  if (/\.anf\.ya?ml$/.test(lower)) return 'manifest-yaml';
  if (lower.endsWith('.anf.json')) return 'manifest-json';
  if (lower === 'fstab' || lower.endsWith('.fstab') || (parent === 'etc' && lower.startsWith('fstab'))) return 'fstab';
  if (lower.endsWith('.mount')) return 'systemd-mount';
  if (lower.startsWith('auto.')) return 'autofs';
  if (lower === 'sysctl.conf' || lower.endsWith('.sysctl.conf') || (parent === 'sysctl.d' && lower.endsWith('.conf')))
    return 'sysctl';
  if (parent === 'modprobe.d' && lower.endsWith('.conf')) return 'modprobe';
  if (lower === 'tuned.conf') return 'tuned';
  if (lower.endsWith('.sh') || lower.endsWith('.bash')) return 'shell';
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) return 'markdown';
  if (lower.endsWith('.rst')) return 'rst';
  // Salt states (YAML rendered from Jinja) and Puppet manifests: their mount states and resources.
  if (lower.endsWith('.sls')) return 'salt';
  if (lower.endsWith('.pp')) return 'puppet';
  // Chef recipes: only those with a `mount ... do` resource (other Ruby is not ours).
  if (lower.endsWith('.rb')) return text !== undefined && CHEF_MOUNT.test(text) ? 'chef' : 'unknown';
  // Terraform's JSON syntax for variable values: read with the `.tfvars` files of its module.
  if (lower.endsWith('.tfvars.json')) return 'terraform-vars';
  if (lower.endsWith('.json')) {
    if (text === undefined) return 'unknown';
    // An ARM template or `az netappfiles` output: the estate. Else JSON (a Trident backend.json, a
    // Packer or ARM parameter file) that holds an NFS option string.
    if (NETAPP_TYPE.test(text)) return DEPLOYMENT_SCHEMA.test(text) ? 'arm-template' : 'az-netappfiles-json';
    // A parameters file gives its template's parameters values (iac/parameters.ts); one that also
    // holds NFS option strings stays read for its mounts, as before.
    if (
      !JSON_OPTION_HINT.test(text) &&
      (PARAMETERS_SCHEMA.test(text) ||
        (PARAMETERS_NAME.test(lower) && /"parameters"\s*:\s*\{/.test(text) && !DEPLOYMENT_SCHEMA.test(text)))
    )
      return 'arm-parameters';
    return JSON_OPTION_HINT.test(text) || TRIDENT_ANF_BACKEND.test(text) ? 'json-options' : 'unknown';
  }
  if (isSaptuneNote(path, segments, lower, text)) return 'saptune';
  // Performance-test job files: fio (`*.fio`, or an ini file whose keys are fio's) and vdbench.
  if (lower.endsWith('.fio')) return 'fio';
  // A capture of a host's /proc/self/mountstats, committed in its folder (issue 30).
  if (lower === 'mountstats' || lower.endsWith('.mountstats')) return 'mountstats';
  if (lower.endsWith('.vdb') || lower.endsWith('.vdbench')) return 'vdbench';
  if (/\.(?:ini|conf|job)$/.test(lower) && text !== undefined && looksLikeFioJobFile(text)) return 'fio';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) {
    if (text === undefined) return 'unknown';
    if (/^#cloud-config\b/.test(text)) return 'cloud-init';
    // A pipeline whose steps create Azure NetApp Files resources: its scripts are read for the estate.
    if ((PIPELINE_PATH.test(path) || PIPELINE_KEYS.test(text)) && NETAPPFILES_COMMAND.test(text)) return 'ci-pipeline';
    const folder = segments().slice(0, -1);
    // Helm: a chart's templates (not valid YAML: `{{ ... }}` lines) and its values files.
    if (folder.includes('templates') && text.includes('{{') && /^apiVersion[ \t]*:/m.test(text)) return 'helm';
    if (/^values(?:[-.][\w.-]+)?\.ya?ml$/.test(lower) && OPTION_HINT.test(text)) return 'helm';
    if (/^apiVersion[ \t]*:/m.test(text) && /^kind[ \t]*:/m.test(text)) return 'kubernetes';
    if (ANSIBLE_PLAY.test(text) && (ANSIBLE_MOUNT.test(text) || ANSIBLE_KERNEL.test(text) || OPTION_HINT.test(text)))
      return 'ansible';
    // Ansible variables: role defaults/ and vars/, group_vars/ and host_vars/.
    const roleVars = (parent === 'defaults' || parent === 'vars') && folder.includes('roles');
    if (roleVars || folder.includes('group_vars') || folder.includes('host_vars')) return 'ansible-vars';
    if (OPTION_HINT.test(text) || TRIDENT_ANF_BACKEND.test(text)) return 'yaml-options';
    return 'unknown';
  }
  if (lower.endsWith('.tf')) return 'terraform';
  if (lower.endsWith('.tfvars')) return 'terraform-vars';
  // Example values a repository ships for users to copy (`terraform.tfvars.example`): read only where nothing else sets a variable, and said so.
  if (lower.endsWith('.tfvars.example') || lower.endsWith('.tfvars.sample')) return 'terraform-vars';
  if (lower.endsWith('.bicep')) return 'bicep';
  if (lower.endsWith('.bicepparam')) return 'bicep-params';
  if (lower.endsWith('.ps1') || lower.endsWith('.psm1')) return 'powershell';
  if (!name.includes('.') && text !== undefined && SHEBANG_SHELL.test(text)) return 'shell';
  return 'unknown';
}
