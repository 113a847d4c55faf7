import type { MountEntry } from './model';

/**
 * A server or source that is not an address yet: a snippet's tab stop (`${1:10.0.0.4}`), a
 * placeholder to fill in (`<mount-target-ip>`, recommend/mountLine.ts), a shell or template
 * variable (`$NFS_SERVER`, `${server}`, `{{ anf_ip }}`). Such a mount reaches no volume and is no
 * host's mount: the tree does not list or count it, and "Insert mount command" does not copy it.
 */
const PLACEHOLDER = /\$\{|\{\{|\}\}|<[^<>]*>|^\$[A-Za-z_]|%[A-Za-z_]+%/;

export function isPlaceholderText(text: string | undefined): boolean {
  return text !== undefined && PLACEHOLDER.test(text);
}

/** Whether a mount's server (or, without one, its source) is a placeholder rather than an address. */
export function hasPlaceholderAddress(mount: Pick<MountEntry, 'server' | 'source'>): boolean {
  return isPlaceholderText(mount.server ?? mount.source) || isPlaceholderText(mount.source);
}
