import type { Span } from '../text/sourceText';
import type { WorkloadKind } from '../facts';

/** Where a mount was written. */
/** `option-string`: a string found by its content alone (optionStrings.ts): only its options are known. */
export type MountOrigin =
  | 'fstab'
  | 'mount-command'
  | 'systemd'
  | 'autofs'
  | 'ansible'
  | 'salt'
  | 'puppet'
  | 'chef'
  | 'kubernetes'
  | 'option-string';

/** One option of a mount's option list, e.g. `rsize=262144` or `hard`. */
export interface MountOption {
  /** The option name as written (`nfsvers`, `nconnect`). */
  readonly name: string;
  /** The value after `=`, if any. */
  readonly value?: string;
  /** The whole `name=value` text. */
  readonly span: Span;
  readonly nameSpan: Span;
  readonly valueSpan?: Span;
  /** The option (or its value) is a template placeholder (`{{ opts }}`, `${OPTS}`): never judged. */
  readonly templated: boolean;
}

/** A mount found in any host format, normalized so that every rule reads the same shape. */
export interface MountEntry {
  readonly uri: string;
  readonly origin: MountOrigin;
  /** `server:/export` as written, and its parts. */
  readonly source?: string;
  readonly sourceSpan?: Span;
  readonly server?: string;
  readonly exportPath?: string;
  readonly mountPoint?: string;
  readonly mountPointSpan?: Span;
  readonly fsType?: string;
  readonly fsTypeSpan?: Span;
  readonly options: readonly MountOption[];
  /**
   * Where the option list is (for inserting an option); for a mount with no options, an empty span
   * where `-o opts` or the options field would go.
   */
  readonly optionsSpan?: Span;
  /**
   * The option list as written, from a reader whose options follow from this text alone (names,
   * values, placeholders): a plain fstab line. Mounts with the same text and file system type have
   * the same effective options, worked out once (catalog.ts `effectiveOptions`).
   */
  readonly optionListText?: string;
  /** Judged by NFS rules only when true (`-t nfs`, `nfs4`, `fstype=nfs`). */
  readonly isNfs: boolean;
  /** The whole mount: line, command or unit. */
  readonly span: Span;
  /** `# anf: workload=eda-tools` on or above the line. */
  readonly annotatedWorkload?: WorkloadKind;
  readonly annotationSpan?: Span;

  // Optional details (added by the mounts extractor; readers may ignore them).
  /** The host format the mount was read from, when it differs from `origin` (a `mount` command in Markdown or cloud-init). */
  readonly host?:
    | 'fstab'
    | 'shell'
    | 'markdown'
    | 'cloud-init'
    | 'systemd'
    | 'autofs'
    | 'ansible'
    | 'salt'
    | 'puppet'
    | 'chef'
    | 'kubernetes'
    | 'helm'
    | 'rst'
    | 'yaml'
    | 'json';
  /**
   * Only the option list is known (a string found by its content, a Kubernetes `mountOptions` list):
   * the rest of the mount is written elsewhere, so rules that judge what is missing stay silent.
   */
  readonly optionsOnly?: boolean;
  /**
   * What the configuration around an option list says the server is, when it has no address: a
   * Trident backend's `storageDriverName` (`azure-netapp-files`, `ontap-nas`,
   * `google-cloud-netapp-volumes`), a StorageClass's `backendType` or CSI `provisioner`
   * (`file.csi.azure.com`). `why` is said on hover and in messages.
   */
  readonly serverKind?: { readonly kind: 'anf' | 'azure-files' | 'azure-blob' | 'other'; readonly why: string };
  /**
   * What the options are when none are written, where that is not the mount's own text (a
   * Kubernetes inline NFS volume: the kernel's defaults). Said on hover.
   */
  readonly optionsNote?: string;
  /** A file system type written at the start of the option text (`nfs nfsvers=4.1,sec=sys`): ANF240. */
  readonly optionsFsType?: { readonly text: string; readonly span: Span };
  /**
   * Quotes that are part of the option text itself (`"'rw,vers=4'"` in YAML, `-o "'rw'"`): mount
   * receives them. `certain` when the text goes straight to mount (an Ansible `opts:`, an fstab field). ANF241.
   */
  readonly optionsQuotes?: { readonly open: Span; readonly close: Span; readonly certain: boolean };
  /** Some part of the mount (source, mount point, type or an option) is a template placeholder. */
  readonly templated?: boolean;
  /** The mount point with fstab octal escapes (`\040`) decoded. */
  readonly mountPointDecoded?: string;
  /** fstab's fifth and sixth fields (dump frequency, fsck pass), as written. */
  readonly dump?: string;
  readonly dumpSpan?: Span;
  readonly fsckPass?: string;
  readonly fsckPassSpan?: Span;
  /**
   * How to write an option list where there is none yet: insert `before + options + after` at
   * `optionsSpan.start` (e.g. `-o ` and ` ` for a command, `\nOptions=` for a systemd unit).
   */
  readonly optionsInsertion?: { readonly before: string; readonly after: string };
  /**
   * The carrier writes this mount into /etc/fstab besides (or instead of) mounting it: Salt
   * `mount.mounted` (`persist` defaults to True) and `mount.fstab_present`; a Puppet `mount` with
   * `ensure => mounted|present|defined`. Fstab rules judge such a mount as an fstab entry (persistence.ts).
   */
  readonly persistedIn?: 'fstab';
}
