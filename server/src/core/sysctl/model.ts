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
   * Ansible only: a later task replaces the body this setting is written in (a `blockinfile` with the
   * same file and marker, a `copy` to the same file). Usually the two tasks are alternatives (`when:`
   * RHEL / SLES, HA / standalone): the setting is still checked on its own, but never "set again".
   */
  readonly replacedBody?: true;
}

/** One whitespace-separated field of a setting's value. */
export interface KernelValueField {
  readonly text: string;
  readonly span: Span;
}
