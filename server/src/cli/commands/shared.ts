import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Colors } from '../color';
import { UsageError } from '../io';

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs, with unknown or malformed flags turned into a usage error that names the flag. */
export function parseOrUsage<T extends Options>(args: readonly string[], options: T, allowPositionals: boolean) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(
      message.replace(/\. To specify a positional argument.*$/s, '').replace(/^Unknown option/, 'unknown option'),
    );
  }
}

/** A plain table: columns padded to their widest cell (colors not counted). */
export function table(headers: readonly string[], rows: readonly (readonly string[])[], colors: Colors): string {
  const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').length;
  const widths = headers.map((h, i) => Math.max(visible(h), ...rows.map((r) => visible(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visible(cell))))
      .join('  ')
      .trimEnd();
  return `${[colors.bold(line(headers)), ...rows.map(line)].join('\n')}\n`;
}
