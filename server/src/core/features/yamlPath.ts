/**
 * Where the cursor is in a YAML manifest that may be half-typed: the path of keys and list
 * indexes above it, found from indentation alone (the parser cannot help with a line being typed).
 */
export interface YamlContext {
  /** Keys and list indexes from the root to the mapping the cursor is in (indexes are 0). */
  readonly path: readonly (string | number)[];
  /** When the cursor is after `key:`, that key (a value is being typed). */
  readonly valueKey?: string;
  /** The word typed so far (a key's start, or the value's). */
  readonly typed: string;
  /** Keys already present in the same mapping, above the cursor. */
  readonly siblings: readonly string[];
}

interface LineInfo {
  readonly dashCol?: number;
  readonly keyCol: number;
  readonly key?: string;
  readonly hasValue: boolean;
}

const LINE = /^(\s*)(?:(-)(\s+))?(?:([\w$.-]+)\s*:(?:\s+(.*?)|\s*)$)?/;

function info(line: string): LineInfo | undefined {
  if (/^\s*(#.*)?$/.test(line)) return undefined;
  const m = LINE.exec(line)!;
  const indent = m[1]!.length;
  const dash = m[2] !== undefined;
  const keyCol = dash ? indent + 1 + m[3]!.length : indent;
  const value = m[5];
  return {
    ...(dash ? { dashCol: indent } : {}),
    keyCol,
    ...(m[4] ? { key: m[4] } : {}),
    hasValue: value !== undefined && value !== '' && !value.startsWith('#'),
  };
}

export function yamlContextAt(text: string, offset: number): YamlContext | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const prefix = text.slice(lineStart, offset);
  const above = text.slice(0, lineStart).split('\n');
  above.pop();

  const cursor = /^(\s*)(?:(-)(\s+))?(?:([\w$.-]+)\s*:\s*(\S*)|([\w$.-]*))$/.exec(prefix);
  if (!cursor) return undefined;
  const path: (string | number)[] = [];
  const siblings: string[] = [];
  const valueKey = cursor[4];
  const typed = valueKey !== undefined ? (cursor[5] ?? '') : (cursor[6] ?? '');
  // mode 'mapping': col is the key column of the mapping we are in; 'list': col is the dash column of its items.
  let mode: 'mapping' | 'list';
  let col: number;
  if (cursor[2]) {
    path.unshift(0);
    mode = 'list';
    col = cursor[1]!.length;
  } else {
    mode = 'mapping';
    col = cursor[1]!.length;
  }
  let first = mode === 'mapping';

  for (let i = above.length - 1; i >= 0; i--) {
    const line = info(above[i]!);
    if (!line) continue;
    if (mode === 'mapping') {
      if (line.keyCol > col) continue;
      if (line.keyCol === col) {
        if (first && line.key) siblings.push(line.key);
        if (line.dashCol !== undefined) {
          path.unshift(0);
          mode = 'list';
          col = line.dashCol;
          first = false;
        }
        continue;
      }
    } else {
      if (line.dashCol === col || line.keyCol > col) continue;
    }
    // A line left of us: the key that owns the mapping or list we are in.
    if (!line.key || line.hasValue) return undefined;
    first = false;
    path.unshift(line.key);
    if (line.dashCol !== undefined) {
      path.unshift(0);
      mode = 'list';
      col = line.dashCol;
    } else {
      mode = 'mapping';
      col = line.keyCol;
    }
  }
  return { path, ...(valueKey !== undefined ? { valueKey } : {}), typed, siblings };
}
