/** The sections of a project, in navigation order. `ready: false` pages show "coming soon". */

/** One entry of the project navigation. */
export interface Section {
  path: string;
  label: string;
  ready: boolean;
  /** What the page will do, shown while it is not built yet. */
  about: string;
}

/** Every project section. */
export const sections: readonly Section[] = [
  { path: 'calls', label: 'Calls', ready: true, about: 'Every traced call, filterable and sortable.' },
  {
    path: 'threads',
    label: 'Threads',
    ready: true,
    about: 'Conversations grouped by thread, with sortable turn statistics (turns, latency, tokens, cost).',
  },
  {
    path: 'evaluations',
    label: 'Evaluations',
    ready: true,
    about: 'Evaluation runs with their scores per example, summaries, and comparisons against a baseline.',
  },
  {
    path: 'annotation',
    label: 'Annotation queues',
    ready: true,
    about: 'Queues of calls for people to review and score, keyboard first, with progress per reviewer.',
  },
  {
    path: 'objects',
    label: 'Objects',
    ready: true,
    about: 'Versioned objects and ops: datasets, prompts, models and scorers, with their history.',
  },
  {
    path: 'playground',
    label: 'Playground',
    ready: true,
    about: 'Run a prompt against one or more models side by side, through the configured providers.',
  },
  {
    path: 'judges',
    label: 'Judges',
    ready: true,
    about: 'LLM judges and the models they run on, as versioned objects: create, edit, and score calls with them.',
  },
  {
    path: 'monitors',
    label: 'Monitors',
    ready: true,
    about: 'Judges applied automatically to a sampled share of new calls that match a filter.',
  },
  {
    path: 'dashboards',
    label: 'Dashboards',
    ready: true,
    about: 'Charts of call volume, latency, errors, tokens and cost over time.',
  },
  {
    path: 'settings',
    label: 'Settings',
    ready: true,
    about: 'Model providers, model prices, API keys and users.',
  },
];

/** The sections that are not built yet (ComingSoon.tsx shows them). */
export const comingSoonPages: readonly Section[] = sections.filter((s) => !s.ready);
