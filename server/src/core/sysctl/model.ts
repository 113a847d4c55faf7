import type { Span } from '../text/sourceText';

/** Where a kernel setting was written. */
export type KernelSettingOrigin = 'sysctl' | 'modprobe' | 'sysctl-w' | 'proc-echo' | 'tuned';

/** One kernel parameter assignment, normalized across host formats. */
export interface KernelSetting {
  readonly uri: string;
  readonly origin: KernelSettingOrigin;
  /**
   * The key in dotted sysctl form (`net.ipv4.tcp_rmem`, `sunrpc.tcp_max_slot_table_entries`);
   * modprobe options become `module.parameter` (`sunrpc.tcp_max_slot_table_entries`, `nfs.max_session_slots`).
   */
  readonly key: string;
  /** The key as written (`net/ipv4/tcp_rmem`, `-net.ipv4.tcp_sack`). */
  readonly rawKey: string;
  /** Where `rawKey` is written (with its `-` prefix, if any; for modprobe, the parameter name). */
  readonly keySpan: Span;
  /** The value as written, whitespace between fields preserved. */
  readonly value: string;
  readonly valueSpan: Span;
  /** The whole assignment. */
  readonly span: Span;
  /** `-key = value`: failures to set it are ignored. */
  readonly ignoreFailure: boolean;
  /** The key or value is a template placeholder: never judged. */
  readonly templated: boolean;
  /**
   * The value's whitespace-separated fields (`4096 87380 16777216` has three), each with its span, so
   * that a rule can replace one field. Quotes of shell words are not part of the text.
   */
  readonly fields?: readonly KernelValueField[];
  /**
   * Written to a file that applies at every boot (sysctl.conf, sysctl.d, modprobe.d, tuned), as
   * opposed to a command that applies once (`sysctl -w`, `echo > /proc/sys`).
   */
  readonly persistent?: boolean;
  /** modprobe only: the module name (`sunrpc` in `options sunrpc tcp_max_slot_table_entries=128`). */
  readonly moduleSpan?: Span;
  /**
   * When the setting is written, if not whenever its file is: the `when:` of its Ansible task and of
   * the blocks around it, its `loop:`, a `rescue:` section, or the `{% if %}` branch of a template
   * (model text, compared for equality only). Two settings with different conditions may apply to
   * different hosts or runs (`when: ha_cluster` / `when: not ha_cluster`): neither overwrites the other.
   */
  readonly condition?: string;
  /**
   * Ansible only: the file the task writes (its `path:`/`dest:`, `/etc/sysctl.conf` for the sysctl
   * module) and the hosts it runs on (the play's `hosts:`, `delegate_to:`). Settings written to
   * different targets are never compared: which file loads last is not the task order. A templated
   * path is a target of its own.
   */
  readonly target?: string;
  /**
   * Ansible only: where the task puts its text relative to what earlier tasks wrote to the same file.
   * `block` is the part of the file it owns (a `blockinfile` marker, the whole file for `copy`);
   * `last` is true when it surely lands after (or replaces) every earlier write: `blockinfile` and
   * `lineinfile` appending at the end (their default), a `regexp` replacing the line in place, the
   * sysctl module, `copy`. False for `insertbefore:`, `insertafter:` a pattern, `backrefs:`.
   */
  readonly placement?: { readonly block?: string; readonly last: boolean };
}

/** One whitespace-separated field of a setting's value. */
export interface KernelValueField {
  readonly text: string;
  readonly span: Span;
}
