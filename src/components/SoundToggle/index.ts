export { SoundToggle, type SoundToggleProps } from './SoundToggle';
