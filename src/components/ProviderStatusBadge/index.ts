export {
  ProviderStatusBadge,
  providerStatusPill,
  type ProviderStatusBadgeProps,
} from './ProviderStatusBadge';
