/** Editor pacing of the client. Tuning choices for the UI, not facts about Azure NetApp Files. */

/** The tree view waits for diagnostics and file events to settle this long before asking again. */
export const HIERARCHY_REFRESH_DEBOUNCE_MS = 250; // not a fact: UI pacing, one refresh per burst of changes

/** How long a status-bar confirmation (e.g. "added the pool to ...") stays. */
export const STATUS_MESSAGE_MS = 5000; // not a fact: UI pacing, long enough to read one line
