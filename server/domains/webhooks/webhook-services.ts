import type { OutboundPolicy } from '../../lib/outbound-http.js';
import type { Sealer } from '../../lib/sealer.js';

/** What managing endpoints needs besides the database. */
export interface WebhookAdminServices {
  webhookSecrets: Sealer;
  outboundPolicy: OutboundPolicy;
  config: { webhookDesign: 'A' | 'B'; webhookRotationOverlapSeconds: number };
}
