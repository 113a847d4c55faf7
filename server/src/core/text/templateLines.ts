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
