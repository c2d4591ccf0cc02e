export { MgStatusBadge, type MgStatusBadgeProps } from './MgStatusBadge';
