export { SettingsView } from './SettingsView';
