/**
 * Lines of a templated file that are the template's own, not the file's: Jinja statements and
 * comments (`{% for m in mounts %}`, `{# note #}`), ERB control (`<% if x %>`, not `<%= x %>`), and a
 * line that is one whole placeholder (`{{ extra_fstab_lines }}`, filled in with unknown lines).
 * Ansible roles keep fstab, sysctl.d and autofs files as templates (often without a `.j2`
 * suffix): the line readers skip these lines as they skip comments, instead of calling them
 * malformed.
 */
const DIRECTIVE = /^(?:\{%|\{#|<%(?!=))/;
const WHOLE_PLACEHOLDER = /^\{\{[^{}]*\}\}$/;

/** `text` is one line; leading and trailing blanks are ignored. */
export function isTemplateDirectiveLine(text: string): boolean {
  // Every line of every line-based file comes here: look at the first character before trimming.
  let i = 0;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (text[i] !== '{' && text[i] !== '<') return false;
  const trimmed = text.trim();
  return DIRECTIVE.test(trimmed) || WHOLE_PLACEHOLDER.test(trimmed);
}

/**
 * Which branch of a Jinja template a line is in: `{% if %}` / `{% elif %}` / `{% else %}` open
 * branches that exclude each other, `{% for %}` repeats its body. Feed the lines in order; `branch`
 * names the innermost open branches (undefined outside any), so two lines with the same name are
 * written together and two with different names may not be (one host gets one branch, another the
 * other). A value two exclusive branches set is not "set twice".
 */
export class JinjaBranches {
  private readonly open: { readonly id: string; arm: number; readonly loop: boolean }[] = [];
  private next = 0;

  /** `prefix` keeps the branches of two templates in one file (two Ansible bodies) apart. */
  constructor(private readonly prefix = '') {}

  /** Reads one line; returns true when it was a Jinja statement (its own branch does not change). */
  feed(line: string): boolean {
    let any = false;
    for (const match of line.matchAll(/\{%-?\s*(\w+)([^%]*)-?%\}/g)) {
      any = true;
      const word = match[1]!;
      if (word === 'if' || word === 'for')
        this.open.push({ id: `${this.prefix}${word}#${this.next++}`, arm: 0, loop: word === 'for' });
      else if (word === 'elif' || word === 'else') {
        const top = this.open[this.open.length - 1];
        if (top) top.arm++;
      } else if (word === 'endif' || word === 'endfor') this.open.pop();
    }
    return any;
  }

  /** The open branches, outermost first, or undefined outside every `{% if %}` and `{% for %}`. */
  get branch(): string | undefined {
    return this.open.length === 0 ? undefined : this.open.map((b) => `${b.id}:${b.arm}`).join(' && ');
  }
}
