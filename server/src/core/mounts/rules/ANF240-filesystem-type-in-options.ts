import { lazyFinding, type FixApplicability } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { mountFix } from '../fixes';

export const filesystemTypeInOptions = defineRule({
  code: 'ANF240',
  name: 'filesystem-type-in-options',
  domain: 'mount',
  defaultSeverity: 'error',
  fixes: ['safe', 'unsafe'],
  doc: {
    title: 'File system type written inside the option list',
    what: 'An option list that starts with the file system type and a space: `nfs nfsvers=4.1,sec=sys`. Found in Ansible `opts:`, variables and other option strings.',
    why: "The type is not an option. Written into fstab (what Ansible's mount module does with `opts`), the space makes `nfs` the options field and shifts every later field; passed to `mount -o`, mount.nfs gets an option named `nfs nfsvers` and refuses the mount.",
    instead:
      "Keep the type where the type goes (`fstype: nfs`, `-t nfs`, fstab's third field) and only options in the list. The fix removes the type word; it is offered as a safe fix where the text is an Ansible `opts:` value, and as a suggestion for strings found by their content.",
    examples: [
      {
        flagged:
          '- name: Mount the HANA shared volume\n  ansible.posix.mount:\n    src: 10.20.1.4:/hana-shared\n    path: /hana/shared\n    fstype: nfs\n    opts: nfs nfsvers=4.1,sec=sys,hard\n    state: mounted',
        better:
          '- name: Mount the HANA shared volume\n  ansible.posix.mount:\n    src: 10.20.1.4:/hana-shared\n    path: /hana/shared\n    fstype: nfs\n    opts: nfsvers=4.1,sec=sys,hard\n    state: mounted',
        language: 'yaml',
        file: 'roles/hana/tasks/main.yml',
      },
    ],
    sources: ['NFS5'],
  },
  judges: 'any mount',
  appliesTo: (file) => file.mounts.some((m) => m.optionsFsType !== undefined),
  checkMount({ mount }, context) {
    const type = mount.optionsFsType;
    if (!type) return;
    const bodyStart = mount.optionsSpan?.start ?? type.span.end;
    // An Ansible `opts:` value is surely an option list; a string found by its content may not be.
    const applicability: FixApplicability = mount.origin === 'option-string' ? 'unsafe' : 'safe';
    context.report(
      lazyFinding({ span: type.span }, () => ({
        message: `\`${type.text}\` is the file system type, not a mount option: mount receives \`${type.text} ${mount.options[0] ? context.file.source.text.slice(mount.options[0].span.start, mount.options[0].span.end) : ''}\` as one option and refuses the mount (in fstab, the space shifts every later field). Write the type as the type (\`fstype: ${type.text}\`, \`-t ${type.text}\`) and keep only options here.`,
        fixes: mountFix[applicability](`Remove \`${type.text}\` from the options`, {
          span: { start: type.span.start, end: bodyStart },
          newText: '',
        }),
      })),
    );
  },
});
