/**
 * The Settings screen (§2 Settings): a placeholder saying environment and integration settings
 * will go here. Nothing to load yet; the container exists so the route table stays uniform.
 */
import { SettingsView } from '../components/SettingsView';

/** The /settings route's screen. */
export function SettingsScreen() {
  return <SettingsView />;
}
