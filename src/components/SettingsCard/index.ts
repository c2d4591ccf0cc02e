export { SettingsCard, type SettingsCardProps } from './SettingsCard';
