import type { Rule } from '../../rules/rule';
import { mountstatsUnreadable } from './ANF506-mountstats-unreadable';
import { optionsInForceDiffer } from './ANF507-options-in-force-differ';
import { mountBound } from './ANF508-mount-bound';

/** Rules for a host's captured (or live) NFS state, `/proc/self/mountstats` (ANF506-ANF508, issue 30; domain perftest). */
export const mountstatsRules: readonly Rule[] = [mountstatsUnreadable, optionsInForceDiffer, mountBound];
