/**
 * The prompt templates, one per task, each with a version stored in every prediction. Change the
 * wording → bump the version, so results from different prompts are never mixed silently.
 */
import type { CeItem, FlItem, QaItem } from '@faun/schema';

export const PROMPT_VERSIONS = { qa: 'qa-v1', fl: 'fl-v1', ce: 'ce-v1' } as const;

/** A prompt as named sections; `cuttable` sections may be shortened in the middle to fit. */
export interface Section {
  name: string;
  heading: string | null;
  body: string;
  /** Lower = cut first. Undefined = never cut. */
  cutOrder?: number;
}

export interface Template {
  system: string;
  sections: Section[];
  instruction: string;
}

const SYSTEM = 'You are an experienced software engineer who maintains open-source projects on GitHub.';

const issueSections = (item: { issue_title: string; issue_body: string }, bodyCut: number): Section[] => [
  { name: 'issue_title', heading: 'Issue title', body: item.issue_title },
  { name: 'issue_body', heading: 'Issue description', body: item.issue_body, cutOrder: bodyCut },
];

export function qaTemplate(item: QaItem): Template {
  const conversation = item.context.map((t) => `[${t.role}] ${t.content}`).join('\n\n');
  return {
    system: SYSTEM,
    sections: [
      {
        name: 'intro',
        heading: null,
        body: `A user opened the following issue in the repository ${item.repo}. Reply to it as a maintainer.`,
      },
      ...issueSections(item, 2),
      { name: 'context', heading: 'Conversation so far', body: conversation, cutOrder: 1 },
    ],
    instruction:
      "Write the maintainer's reply to the issue: answer the question or explain the fix. Put any code in " +
      'triple backticks (```). Reply with the answer text only.',
  };
}

export function flTemplate(item: FlItem): Template {
  return {
    system: SYSTEM,
    sections: [
      {
        name: 'intro',
        heading: null,
        body: `Below is an issue from the repository ${item.repo} and the list of files in the repository.`,
      },
      ...issueSections(item, 2),
      { name: 'tree', heading: 'Repository files', body: item.tree.join('\n'), cutOrder: 1 },
    ],
    instruction:
      'Which single file must be changed to resolve this issue? Answer with the file path only, exactly as ' +
      'it appears in the list above, on one line, with no other text.',
  };
}

export function ceTemplate(item: CeItem): Template {
  return {
    system: SYSTEM,
    sections: [
      {
        name: 'intro',
        heading: null,
        body: `Below is an issue from the repository ${item.repo}, the pull request that fixes it, and the file to edit.`,
      },
      ...issueSections(item, 2),
      { name: 'pr_title', heading: 'Pull request title', body: item.pr_title },
      { name: 'pr_body', heading: 'Pull request description', body: item.pr_body, cutOrder: 3 },
      { name: 'file', heading: `File ${item.path}`, body: '```\n' + item.file_before + '\n```', cutOrder: 1 },
    ],
    instruction: [
      `Edit ${item.path} to resolve the issue. Answer only with SEARCH/REPLACE blocks in exactly this format:`,
      '',
      item.path,
      '<<<<<<< SEARCH',
      '(lines copied exactly from the file, including indentation)',
      '=======',
      '(the lines that replace them)',
      '>>>>>>> REPLACE',
      '',
      'Each SEARCH part must match the file exactly and only once; include enough lines to make it unique.',
      'Use several blocks for several changes. Write nothing else.',
    ].join('\n'),
  };
}
