export { ProviderStatusBadge, type ProviderStatusBadgeProps } from './ProviderStatusBadge';
