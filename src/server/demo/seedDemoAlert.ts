/**
 * The demo's alert rule (docs/alerts.md): error rate above 20 % over 15 minutes, in Slack's
 * format. Disabled, because its webhook is a placeholder: enter a real one on the Alerts page
 * and enable it to see firings.
 */
import type { WeftClient } from '../../client/index.js';

export async function seedDemoAlert(client: WeftClient, projectId: string): Promise<void> {
  await client.alertCreate({
    project_id: projectId,
    name: 'Agent error rate',
    metric: 'error_rate',
    comparison: 'above',
    threshold: 0.2,
    window_minutes: 15,
    format: 'slack',
    enabled: false,
    webhook_url: 'https://hooks.slack.com/services/T00000000/B00000000/replace-me',
  });
}
