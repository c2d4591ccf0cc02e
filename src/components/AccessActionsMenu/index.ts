export { AccessActionsMenu, type AccessActionsMenuProps } from './AccessActionsMenu';
