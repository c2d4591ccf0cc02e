import { providerStatusBadge } from '../../domain/status';
import { Badge } from '../Badge';

/** Props of {@link ProviderStatusBadge}. */
export interface ProviderStatusBadgeProps {
  /** The provider's status as sent (provider_status, §3); null or blank shows a grey dash. */
  status: string | null | undefined;
}

/**
 * A provider / subscription status pill (§4): active, trialing green; paused, past_due yellow;
 * cancelled red; anything else grey; missing a dash. The text is the status value itself.
 */
export function ProviderStatusBadge({ status }: ProviderStatusBadgeProps) {
  const badge = providerStatusBadge(status);
  return <Badge tone={badge.tone}>{badge.text}</Badge>;
}

/** Renders a status value as its badge (for table columns: `viewColumn(…, providerStatusPill, …)`). */
export function providerStatusPill(status: string | null | undefined) {
  return <ProviderStatusBadge status={status} />;
}
