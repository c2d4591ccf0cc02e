export { LogLevelBadge, type LogLevelBadgeProps } from './LogLevelBadge';
