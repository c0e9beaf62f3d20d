/**
 * Every page of the dashboard, once: its URL, code-split component, loader and, for the project
 * navigation, its label. routes.tsx derives the routes and the first-load loader start from this
 * list, AppLayout the navigation; adding a page is one entry (docs/dashboard.md "Adding a page").
 */
import type { QueryClient } from '@tanstack/react-query';
import { deferComponent, type DeferredComponent } from '../lib/deferredComponent.js';
import { deferLoader, type DeferredLoader, type RouteLoader, type ShouldRevalidate } from './routing.js';

/** A page's loader, made for the app's query client (routes.tsx makes each one once). */
export type PageLoader = (queryClient: QueryClient) => DeferredLoader;

/**
 * An entry of the project navigation: its label and, for a page not built yet (`soon`: marked in
 * the navigation, routed to ComingSoon), what it will do. A built page says what it does in a
 * comment beside its entry: as data, those texts were ~0.6 KB gzipped of the initial JavaScript.
 */
export type NavEntry = { label: string; soon?: false } | { label: string; soon: true; about: string };

/** One page. */
export interface PageDef {
  /** `/…` at the top level, otherwise under `/:entity/:project/`. */
  path: string;
  /** The component, code-split; none for a loader-only route (one that redirects). */
  page?: DeferredComponent;
  loader?: PageLoader;
  /** In the project navigation, in list order (project pages only). */
  nav?: NavEntry;
}

/** A loader from a module fetched on first use: loaders stay out of the initial JavaScript. */
function loader<M>(
  load: () => Promise<M>,
  make: (m: M, queryClient: QueryClient) => RouteLoader,
  revalidate?: (m: M) => ShouldRevalidate,
): PageLoader {
  return (queryClient) => deferLoader(load, (m) => make(m, queryClient), revalidate);
}

// Modules holding several pages' loaders.
const evaluations = () => import('../features/evaluations/evaluationLoaders.js');
const objects = () => import('../features/objects/objectLoaders.js');
const annotation = () => import('../features/annotation/annotationLoaders.js');
const datasets = () => import('../features/datasets/datasetLoaders.js');

const settings: Pick<PageDef, 'page' | 'loader'> = {
  page: deferComponent(
    () => import('../features/settings/SettingsPage.js'),
    (m) => m.SettingsPage,
  ),
  loader: loader(
    () => import('../features/settings/settingsLoader.js'),
    (m, qc) => m.settingsLoader(qc),
  ),
};
// A call ref (`weave:///…/call/<id>`) opens its trace with the call selected.
const callRef = loader(objects, (m, qc) => m.callRefLoader(qc));

/**
 * The pages. The links the Weave SDKs print with WANDB_BASE_URL pointing here are a call
 * (`<base>/<entity>/<project>/r/call/<id>`) and the project (`.../weave`, routed in routes.tsx).
 */
export const pages: readonly PageDef[] = [
  {
    path: '/',
    page: deferComponent(
      () => import('../features/projects/ProjectsPage.js'),
      (m) => m.ProjectsPage,
    ),
    loader: loader(
      () => import('../features/projects/ProjectsPage.js'),
      (m, qc) => m.projectsLoader(qc),
    ),
  },
  { path: '/settings', ...settings },
  {
    path: 'calls',
    // Every traced call, filterable and sortable.
    nav: { label: 'Calls' },
    page: deferComponent(
      () => import('../features/calls/CallsPage.js'),
      (m) => m.CallsPage,
    ),
    loader: loader(
      () => import('../features/calls/callsLoader.js'),
      (m, qc) => m.callsLoader(qc),
    ),
  },
  {
    path: 'traces/:traceId',
    page: deferComponent(
      () => import('../features/traces/TracePage.js'),
      (m) => m.TracePage,
    ),
    loader: loader(
      () => import('../features/traces/traceLoader.js'),
      (m, qc) => m.traceLoader(qc),
    ),
  },
  { path: 'calls/:callId', loader: callRef },
  { path: 'r/call/:callId', loader: callRef },
  {
    path: 'threads',
    // Conversations grouped by thread, with sortable turn statistics (turns, latency, tokens, cost).
    nav: { label: 'Threads' },
    page: deferComponent(
      () => import('../features/threads/ThreadsPage.js'),
      (m) => m.ThreadsPage,
    ),
    loader: loader(
      () => import('../features/threads/threadsLoader.js'),
      (m, qc) => m.threadsLoader(qc),
    ),
  },
  {
    path: 'threads/:threadId',
    page: deferComponent(
      () => import('../features/threads/thread/ThreadPage.js'),
      (m) => m.ThreadPage,
    ),
    loader: loader(
      () => import('../features/threads/thread/threadLoader.js'),
      (m, qc) => m.threadLoader(qc),
      (m) => m.threadShouldRevalidate,
    ),
  },
  {
    path: 'evaluations',
    // Evaluation runs with their scores per example, summaries, and comparisons against a baseline.
    nav: { label: 'Evaluations' },
    page: deferComponent(
      () => import('../features/evaluations/EvaluationsPage.js'),
      (m) => m.EvaluationsPage,
    ),
    loader: loader(evaluations, (m, qc) => m.evaluationsLoader(qc)),
  },
  {
    path: 'evaluations/runs/:runId',
    page: deferComponent(
      () => import('../features/evaluations/runs/RunPage.js'),
      (m) => m.RunPage,
    ),
    loader: loader(evaluations, (m, qc) => m.runLoader(qc)),
  },
  {
    path: 'evaluations/compare',
    page: deferComponent(
      () => import('../features/evaluations/compare/ComparePage.js'),
      (m) => m.ComparePage,
    ),
    loader: loader(evaluations, (m, qc) => m.compareLoader(qc)),
  },
  {
    path: 'leaderboards',
    // Models ranked on chosen metrics of their evaluation runs, as the SDKs publish Leaderboard objects.
    nav: { label: 'Leaderboards' },
    page: deferComponent(
      () => import('../features/leaderboards/LeaderboardsPage.js'),
      (m) => m.LeaderboardsPage,
    ),
  },
  {
    path: 'leaderboards/:name',
    page: deferComponent(
      () => import('../features/leaderboards/LeaderboardPage.js'),
      (m) => m.LeaderboardPage,
    ),
  },
  {
    path: 'annotation',
    // Queues of calls for people to review and score, keyboard first, with progress per reviewer.
    nav: { label: 'Annotation queues' },
    page: deferComponent(
      () => import('../features/annotation/queues/QueuesPage.js'),
      (m) => m.QueuesPage,
    ),
    loader: loader(annotation, (m, qc) => m.queuesLoader(qc)),
  },
  {
    path: 'annotation/:queueId',
    page: deferComponent(
      () => import('../features/annotation/queues/QueuePage.js'),
      (m) => m.QueuePage,
    ),
    loader: loader(annotation, (m, qc) => m.queueLoader(qc)),
  },
  {
    path: 'annotation/:queueId/review',
    page: deferComponent(
      () => import('../features/annotation/review/ReviewPage.js'),
      (m) => m.ReviewPage,
    ),
    loader: loader(
      annotation,
      (m, qc) => m.reviewLoader(qc),
      (m) => m.reviewShouldRevalidate,
    ),
  },
  {
    path: 'objects',
    // Versioned objects and ops: datasets, prompts, models and scorers, with their history.
    nav: { label: 'Objects' },
    page: deferComponent(
      () => import('../features/objects/ObjectsPage.js'),
      (m) => m.ObjectsPage,
    ),
    loader: loader(objects, (m, qc) => m.objectsLoader(qc)),
  },
  {
    path: 'objects/:objectId',
    page: deferComponent(
      () => import('../features/objects/ObjectPage.js'),
      (m) => m.ObjectPage,
    ),
    loader: loader(
      objects,
      (m, qc) => m.objectLoader(qc),
      (m) => m.objectShouldRevalidate,
    ),
  },
  {
    path: 'tables/:digest',
    page: deferComponent(
      () => import('../features/objects/tables/TablePage.js'),
      (m) => m.TablePage,
    ),
    loader: loader(objects, (m, qc) => m.tableLoader(qc)),
  },
  {
    path: 'datasets',
    // Versioned datasets the SDKs publish: rows edited in place, diffs between versions, import and export.
    nav: { label: 'Datasets' },
    page: deferComponent(
      () => import('../features/datasets/DatasetsPage.js'),
      (m) => m.DatasetsPage,
    ),
    loader: loader(datasets, (m, qc) => m.datasetsLoader(qc)),
  },
  {
    path: 'datasets/:objectId',
    page: deferComponent(
      () => import('../features/datasets/DatasetPage.js'),
      (m) => m.DatasetPage,
    ),
    loader: loader(datasets, (m, qc) => m.datasetLoader(qc)),
  },
  {
    path: 'prompts',
    // Versioned prompts the SDKs publish: variables, aliases, diffs and the calls that used each version.
    nav: { label: 'Prompts' },
    page: deferComponent(
      () => import('../features/prompts/PromptsPage.js'),
      (m) => m.PromptsPage,
    ),
  },
  {
    path: 'prompts/:objectId',
    page: deferComponent(
      () => import('../features/prompts/PromptPage.js'),
      (m) => m.PromptPage,
    ),
  },
  {
    path: 'playground',
    // Run a prompt against one or more models side by side, through the configured providers.
    nav: { label: 'Playground' },
    page: deferComponent(
      () => import('../features/playground/PlaygroundPage.js'),
      (m) => m.PlaygroundPage,
    ),
  },
  {
    path: 'judges',
    // LLM judges and the models they run on, as versioned objects: create, edit, and score calls with them.
    nav: { label: 'Judges' },
    page: deferComponent(
      () => import('../features/judges/JudgesPage.js'),
      (m) => m.JudgesPage,
    ),
  },
  {
    path: 'monitors',
    // Judges applied automatically to a sampled share of new calls that match a filter.
    nav: { label: 'Monitors' },
    page: deferComponent(
      () => import('../features/monitors/MonitorsPage.js'),
      (m) => m.MonitorsPage,
    ),
  },
  {
    path: 'dashboards',
    // Charts of call volume, latency, errors, tokens and cost over time.
    nav: { label: 'Dashboards' },
    page: deferComponent(
      () => import('../features/dashboards/DashboardPage.js'),
      (m) => m.DashboardPage,
    ),
    loader: loader(
      () => import('../features/dashboards/dashboardLoader.js'),
      (m, qc) => m.dashboardLoader(qc),
    ),
  },
  {
    path: 'alerts',
    // Webhooks when error rate, latency, cost or a score crosses a threshold, with snooze and history.
    nav: { label: 'Alerts' },
    page: deferComponent(
      () => import('../features/alerts/AlertsPage.js'),
      (m) => m.AlertsPage,
    ),
  },
  // Model providers, model prices, API keys and users.
  { path: 'settings', nav: { label: 'Settings' }, ...settings },
];

/** The project navigation, in order. */
export const navigation: readonly (NavEntry & { path: string })[] = pages.flatMap((p) => (p.nav ? [{ ...p.nav, path: p.path }] : []));
