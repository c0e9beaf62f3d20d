/** The words for a call's status (`summary.weave.status`); unknown statuses show as given. */
export const STATUS_LABELS: Readonly<Record<string, string>> = {
  success: 'Success',
  error: 'Error',
  running: 'Running',
  descendant_error: 'Child error',
};
